import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** The back-header of spec section 2: a back button and a title, with optional actions on the right. */
export interface BackHeaderProps {
  title: ReactNode;
  /** Where "back" goes when there is no history entry to return to. */
  fallback?: string;
  onBack?: () => void;
  extra?: ReactNode;
}

export function BackHeader({ title, fallback = '/', onBack, extra }: BackHeaderProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const back = () => {
    if (onBack) return onBack();
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(fallback);
  };
  return (
    <div className="os-back-header" data-testid="back-header">
      <Button type="text" icon={<ArrowLeftOutlined />} onClick={back} data-testid="back-header-back">
        {t('common.back')}
      </Button>
      <span className="os-back-header__divider" />
      <h1 className="os-back-header__title">{title}</h1>
      {extra ? <div className="os-back-header__extra">{extra}</div> : null}
    </div>
  );
}

import { Alert, Card, Descriptions, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { PageProps } from '../../../lib/page';
import { useWillStatus } from '../api/will';
import { WillAuthPanel } from '../components/will-auth-panel';
import { formatTime } from '../model/format';

/** Only same-site paths are followed after confirming. */
function sameSite(url: string | null): string | null {
  if (!url || !url.startsWith('/') || url.startsWith('//')) return null;
  return url;
}

/**
 * /willAuthPage?willBizId=…: the stand-alone will-auth page for flows entered from a link. It shows what is
 * being confirmed, sends and checks the SMS code, then goes to the redirect address, which carries
 * `willAuth` and `willBizId` so the page there can restore its state and sign.
 */
export function WillAuthPage({ route }: PageProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const willBizId = params.get('willBizId');
  const status = useWillStatus(willBizId);
  const s = status.data;
  return (
    <div className="os-page" data-testid="will-auth-page" style={{ maxWidth: 560, margin: '0 auto' }}>
      <Card title={t(route.titleKey, { ns: 'route' })}>
        {!willBizId ? (
          <Result status="warning" title={t('signWill.missing')} />
        ) : !s ? (
          status.isError ? (
            <Result status="warning" title={t('signWill.missing')} />
          ) : (
            <Spin style={{ display: 'block', padding: 48 }} />
          )
        ) : s.status !== 'created' ? (
          <Alert
            type={s.status === 'verified' ? 'success' : 'warning'}
            showIcon
            title={t(`signWill.state.${s.status}`)}
            data-testid="will-state"
            data-status={s.status}
          />
        ) : (
          <>
            <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
              <Descriptions.Item label={t('signWill.what')}>
                {t(`signWill.source.${s.source === 3 ? 'sign' : 'other'}`)}
              </Descriptions.Item>
              <Descriptions.Item label={t('signWill.expires')}>{formatTime(s.expiresAt)}</Descriptions.Item>
            </Descriptions>
            <WillAuthPanel
              willBizId={s.willBizId}
              mobile={s.mobile}
              onVerified={(done) => {
                const target = sameSite(done.redirectUrl);
                if (target) window.location.assign(target);
                else void status.refetch();
              }}
            />
          </>
        )}
      </Card>
    </div>
  );
}

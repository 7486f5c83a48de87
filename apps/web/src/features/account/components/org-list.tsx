import {
  BankOutlined,
  CheckCircleFilled,
  DeleteOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { LIMITS } from '@openseal/core';
import { Button, Empty, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { RealNameTag } from '../../../components/real-name-tag';
import type { AccountListEntry } from '../../../lib/contracts';
import { canDeleteFirm, isVerified, orderFirmList } from '../model/firm-list';

/** Row height used to cap the list at LIMITS.orgListScrollAfter visible rows. */
const ROW_HEIGHT = 48;

export interface OrgListProps {
  entries: readonly AccountListEntry[];
  showRealNameAction: boolean;
  onChoose: (entry: AccountListEntry) => void;
  onRealName: (entry: AccountListEntry) => void;
  onDelete: (entry: AccountListEntry) => void;
}

/** The organisations of the account dropdown: chosen first, verified next; scrolls past ten entries. */
export function OrgList({ entries, showRealNameAction, onChoose, onRealName, onDelete }: OrgListProps) {
  const { t } = useTranslation();
  const ordered = orderFirmList(entries);
  if (ordered.length === 0) {
    return (
      <Empty
        className="os-org-list__empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('account.noOrgs')}
      />
    );
  }
  const scrolls = ordered.length > LIMITS.orgListScrollAfter;
  return (
    <ul
      className={scrolls ? 'os-org-list os-org-list--scroll' : 'os-org-list'}
      style={scrolls ? { maxHeight: ROW_HEIGHT * LIMITS.orgListScrollAfter } : undefined}
      data-testid="org-list"
      data-scrolls={scrolls ? 'true' : 'false'}
    >
      {ordered.map((entry) => {
        const current = entry.chooseStatus;
        return (
          <li
            key={entry.accountId}
            className={current ? 'os-org-list__item os-org-list__item--current' : 'os-org-list__item'}
            data-testid="org-item"
            data-org-id={entry.organizeId ?? ''}
            data-account-id={entry.accountId}
            data-current={current ? 'true' : 'false'}
            aria-disabled={current}
            role="button"
            tabIndex={current ? -1 : 0}
            onClick={() => {
              if (!current) onChoose(entry);
            }}
            onKeyDown={(e) => {
              if (!current && (e.key === 'Enter' || e.key === ' ')) onChoose(entry);
            }}
          >
            <BankOutlined className="os-org-list__icon" />
            <span className="os-org-list__name" title={entry.name} data-testid="org-item-name">
              {entry.name}
            </span>
            <span className="os-org-list__tags">
              {current ? (
                <Tag color="blue" variant="filled" icon={<CheckCircleFilled />}>
                  {t('account.current')}
                </Tag>
              ) : null}
              <RealNameTag status={entry.realNameStatus} />
            </span>
            <span className="os-org-list__actions">
              {showRealNameAction && !isVerified(entry) ? (
                <Tooltip title={t('account.goRealName')}>
                  <Button
                    size="small"
                    type="link"
                    icon={<SafetyCertificateOutlined />}
                    data-testid="org-item-realname"
                    onClick={(e) => {
                      e.stopPropagation();
                      onRealName(entry);
                    }}
                  >
                    {t('account.goRealName')}
                  </Button>
                </Tooltip>
              ) : null}
              {canDeleteFirm(entry) ? (
                <Tooltip title={t('account.delete')}>
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('account.delete')}
                    data-testid="org-item-delete"
                    onClick={(e) => {
                      e.stopPropagation();
                      onDelete(entry);
                    }}
                  />
                </Tooltip>
              ) : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

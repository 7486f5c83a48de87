import { CheckCircleFilled } from '@ant-design/icons';
import { Col, Empty, Row, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SealKind, SealKindStatus } from '../api/apply';
import type { SealKindOption } from '../api/seals';
import { groupKinds } from '../model/apply-form';

/**
 * The kinds of the current space as cards, grouped standard / custom / personal, each saying whether the
 * space may apply for it (a seal of the kind or an open application blocks another).
 */
export function ApplyKindPicker({
  kinds,
  statuses,
  selected,
  onSelect,
  loading,
}: {
  kinds: readonly SealKindOption[];
  statuses: Partial<Record<SealKind, SealKindStatus>>;
  selected: SealKind | null;
  onSelect: (kind: SealKind) => void;
  loading: boolean;
}) {
  const { t } = useTranslation();
  if (loading) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (kinds.length === 0) return <Empty description={t('sealApply.noKinds')} />;

  return (
    <div data-testid="apply-kind-picker">
      {groupKinds(kinds).map(({ group, kinds: list }) => (
        <div key={group} style={{ marginBottom: 16 }} data-testid={`apply-kind-group-${group}`}>
          <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
            {t(`sealApply.group.${group}`)}
          </Typography.Text>
          <Row gutter={[12, 12]}>
            {list.map((option) => {
              const status = statuses[option.kind];
              const canApply = status?.canApply ?? false;
              const isSelected = selected === option.kind;
              const badge = !status ? (
                <Tag>{t('sealApply.kindChecking')}</Tag>
              ) : canApply ? (
                <Tag color="green">{t('sealApply.kindAvailable')}</Tag>
              ) : status.seals.length > 0 ? (
                <Tag color="blue">{t('sealApply.kindHas')}</Tag>
              ) : (
                <Tag color="gold">{t('sealApply.kindOpen')}</Tag>
              );
              const card = (
                <div
                  role="button"
                  tabIndex={canApply ? 0 : -1}
                  aria-disabled={!canApply}
                  aria-pressed={isSelected}
                  data-testid={`apply-kind-${option.kind}`}
                  data-can-apply={status ? String(canApply) : 'unknown'}
                  data-selected={String(isSelected)}
                  data-open={status ? String(status.openApplyNos.length) : undefined}
                  onClick={() => canApply && onSelect(option.kind)}
                  onKeyDown={(e) => {
                    if (canApply && (e.key === 'Enter' || e.key === ' ')) onSelect(option.kind);
                  }}
                  style={{
                    position: 'relative',
                    height: '100%',
                    padding: '12px 14px',
                    borderRadius: 6,
                    border: `1px solid ${isSelected ? 'var(--os-primary, #1554ad)' : '#e5e8ef'}`,
                    background: isSelected ? '#f0f5ff' : canApply ? '#fff' : '#fafafa',
                    boxShadow: isSelected ? '0 0 0 2px rgba(21, 84, 173, 0.12)' : undefined,
                    cursor: canApply ? 'pointer' : 'not-allowed',
                    opacity: canApply || !status ? 1 : 0.7,
                    transition: 'border-color 0.2s, background 0.2s',
                  }}
                >
                  <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
                    <Typography.Text strong>{t(`sealCommon.kind.${option.kind}`)}</Typography.Text>
                    {badge}
                  </div>
                  <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, marginTop: 6 }}>
                    {t('sealApply.kindTypes', {
                      types: option.sealTypes.map((s) => t(`sealCommon.drawType.${s}`)).join(' / '),
                    })}
                  </Typography.Text>
                  {status && (status.seals.length > 0 || status.openApplyNos.length > 0) ? (
                    <Typography.Text
                      type="secondary"
                      style={{ display: 'block', fontSize: 12 }}
                      data-testid={`apply-kind-counts-${option.kind}`}
                    >
                      {t('sealApply.kindCounts', {
                        seals: status.seals.length,
                        open: status.openApplyNos.length,
                      })}
                    </Typography.Text>
                  ) : null}
                  {isSelected ? (
                    <CheckCircleFilled
                      style={{
                        position: 'absolute',
                        right: 10,
                        bottom: 10,
                        color: 'var(--os-primary, #1554ad)',
                      }}
                    />
                  ) : null}
                </div>
              );
              return (
                <Col key={option.kind} xs={24} sm={12} xl={8}>
                  {status && !canApply ? <Tooltip title={t('sealApply.kindBlocked')}>{card}</Tooltip> : card}
                </Col>
              );
            })}
          </Row>
        </div>
      ))}
    </div>
  );
}

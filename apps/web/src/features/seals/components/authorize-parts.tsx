import { ApiOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { SealAuthorization } from '../api/authorize';
import { useMySeals } from '../api/seals';
import { usesView, validityView } from '../model/authorize-form';

/**
 * Small pieces the authorisation pages share: the seal's image and name, the grantee, remaining uses,
 * validity and app range of a grant.
 */

/** The images of the space's seals by seal code (an authorisation carries the code and name only). */
export function useSealImages(enabled = true): Map<string, string> {
  const seals = useMySeals({ pageNum: 1, pageSize: 100 }, enabled);
  return useMemo(() => {
    const map = new Map<string, string>();
    for (const s of seals.data?.list ?? []) if (s.imageUrl) map.set(s.sealCode, s.imageUrl);
    return map;
  }, [seals.data]);
}

export function SealThumb({ url, size = 40 }: { url: string | undefined; size?: number }) {
  return (
    <span
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        flex: 'none',
        width: size,
        height: size,
        padding: 2,
        boxSizing: 'border-box',
        background: '#fff',
        border: '1px solid var(--os-border)',
        borderRadius: 4,
      }}
      data-testid="authz-seal-thumb"
      data-has-image={url ? 'true' : 'false'}
    >
      {url ? (
        <img src={url} alt="" style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
      ) : (
        <SafetyCertificateOutlined style={{ fontSize: size / 2, color: 'var(--os-seal-red)' }} />
      )}
    </span>
  );
}

/** The seal's image and name; under the name its code, or in the list the authorisation's number. */
export function SealCell({
  a,
  image,
  showAuthCode = false,
}: {
  a: SealAuthorization;
  image: string | undefined;
  showAuthCode?: boolean;
}) {
  return (
    <Space size={10} data-testid="authz-seal" data-seal-code={a.sealCode} align="center">
      <SealThumb url={image} />
      <span style={{ display: 'inline-flex', flexDirection: 'column', lineHeight: 1.4, minWidth: 0 }}>
        <span>{a.sealName}</span>
        {showAuthCode ? (
          <Typography.Text
            type="secondary"
            copyable={{ text: a.authCode }}
            style={{ fontSize: 12 }}
            data-testid="authz-code"
          >
            {a.authCode}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {a.sealCode}
          </Typography.Text>
        )}
      </span>
    </Space>
  );
}

/** The grantee: a member's name or an app's id, with its kind (under the name when `compact`). */
export function GranteeCell({ a, compact = false }: { a: SealAuthorization; compact?: boolean }) {
  const { t } = useTranslation();
  const isMember = a.granteeType === 'member';
  const name = isMember ? (a.granteeName ?? a.granteeId) : a.granteeId;
  const tag = (
    <Tag variant="filled" color={isMember ? 'blue' : 'purple'} style={{ marginInlineEnd: 0 }}>
      {t(`sealAuthz.granteeTypes.${a.granteeType}`)}
    </Tag>
  );
  if (compact)
    return (
      <span
        data-testid="authz-grantee"
        data-grantee-type={a.granteeType}
        style={{ display: 'inline-flex', flexDirection: 'column', alignItems: 'flex-start', gap: 4 }}
      >
        <span style={{ wordBreak: 'break-all' }}>
          {isMember ? <UserOutlined /> : <ApiOutlined />} {name}
        </span>
        {tag}
      </span>
    );
  return (
    <Space size={6} data-testid="authz-grantee" data-grantee-type={a.granteeType}>
      {isMember ? <UserOutlined /> : <ApiOutlined />}
      <span>{name}</span>
      {tag}
    </Space>
  );
}

/** Remaining uses: "unlimited", or remaining/total with a thin bar of what is left. */
export function UsesCell({ a, wide = false }: { a: SealAuthorization; wide?: boolean }) {
  const { t } = useTranslation();
  const v = usesView(a);
  if (v.unlimited)
    return (
      <span data-testid="authz-uses" data-unlimited="true">
        {t('sealAuthz.unlimited')}
      </span>
    );
  return (
    <div
      data-testid="authz-uses"
      data-unlimited="false"
      data-remaining={v.remaining}
      data-total={v.total}
      style={{ minWidth: wide ? 220 : 110 }}
    >
      <span>{t('sealAuthz.usesShort', { remaining: v.remaining, total: v.total })}</span>
      <Progress
        percent={v.percent}
        size="small"
        showInfo={false}
        strokeColor={v.remaining === 0 ? '#bfbfbf' : undefined}
      />
    </div>
  );
}

/** Validity as one line, or (in narrow table cells) the two days one above the other. */
export function ValidityText({
  a,
  stacked = false,
}: {
  a: Pick<SealAuthorization, 'validFrom' | 'validTo'>;
  stacked?: boolean;
}) {
  const { t } = useTranslation();
  const v = validityView(a);
  const attrs = { 'data-testid': 'authz-validity', 'data-permanent': v.permanent ? 'true' : 'false' };
  if (!stacked)
    return (
      <span {...attrs}>
        {v.permanent ? t('sealAuthz.permanentFrom', { from: v.from }) : t('sealAuthz.from', v)}
      </span>
    );
  return (
    <span
      {...attrs}
      style={{ display: 'inline-flex', flexDirection: 'column', lineHeight: 1.4, whiteSpace: 'nowrap' }}
    >
      {v.permanent ? (
        <>
          <span>{t('sealAuthz.permanent')}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {v.from}
          </Typography.Text>
        </>
      ) : (
        <>
          <span>{v.from}</span>
          <span>{v.to}</span>
        </>
      )}
    </span>
  );
}

export function AppRangeCell({ range }: { range: string[] }) {
  const { t } = useTranslation();
  if (range.length === 0)
    return (
      <Typography.Text type="secondary" data-testid="authz-app-range" data-count={0}>
        {t('sealAuthz.anyApp')}
      </Typography.Text>
    );
  const shown = range.slice(0, 2);
  return (
    <Tooltip title={range.join(', ')}>
      <Space size={4} wrap data-testid="authz-app-range" data-count={range.length}>
        {shown.map((id) => (
          <Tag key={id}>{id}</Tag>
        ))}
        {range.length > shown.length ? <Tag>+{range.length - shown.length}</Tag> : null}
      </Space>
    </Tooltip>
  );
}

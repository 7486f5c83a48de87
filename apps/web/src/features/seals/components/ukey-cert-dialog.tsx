import { useQuery } from '@tanstack/react-query';
import { Descriptions, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../../components/app-dialog';
import { fetchCertProperties, UKEYS_KEY } from '../api/ukeys';
import { CERT_STATUS_COLOUR } from '../model/ukey-actions';

/** Certificate properties of a bound key (POST /v1/sealUKeyBinding/certProperties). */
export function UkeyCertDialog({ ukeySn, onClose }: { ukeySn: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const cert = useQuery({
    queryKey: [...UKEYS_KEY, 'cert', ukeySn],
    queryFn: () => fetchCertProperties({ ukeySn: ukeySn! }),
    enabled: ukeySn !== null,
  });
  const d = cert.data;
  const yesNo = (v: boolean) => (
    <Tag color={v ? 'green' : 'red'}>{v ? t('ukeyMng.certDialog.yes') : t('ukeyMng.certDialog.no')}</Tag>
  );
  const time = (v: string) => new Date(v).toLocaleString(i18n.language);
  return (
    <AppDialog
      open={ukeySn !== null}
      width={640}
      title={t('ukeyMng.certDialog.title')}
      footer={null}
      onCancel={onClose}
    >
      {cert.isPending ? (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      ) : d ? (
        <Descriptions
          size="small"
          column={1}
          bordered
          data-testid="ukey-cert-properties"
          items={[
            { key: 'subject', label: t('ukeyMng.certDialog.subject'), children: d.subject },
            { key: 'issuer', label: t('ukeyMng.certDialog.issuer'), children: d.issuer },
            {
              key: 'serial',
              label: t('ukeyMng.certDialog.serial'),
              children: <span data-testid="ukey-cert-serial">{d.serial}</span>,
            },
            { key: 'org', label: t('ukeyMng.certDialog.organization'), children: d.organization ?? '—' },
            { key: 'uscc', label: t('ukeyMng.certDialog.uscc'), children: d.uscc ?? '—' },
            {
              key: 'validity',
              label: t('ukeyMng.certDialog.validity'),
              children: `${time(d.notBefore)} ~ ${time(d.notAfter)}`,
            },
            { key: 'alg', label: t('ukeyMng.certDialog.keyAlgorithm'), children: d.keyAlgorithm },
            {
              key: 'status',
              label: t('ukeyMng.certDialog.status'),
              children: (
                <Tag
                  color={CERT_STATUS_COLOUR[d.status]}
                  data-testid="ukey-cert-status"
                  data-status={d.status}
                >
                  {t(`ukeyMng.certStatus.${d.status}`)}
                </Tag>
              ),
            },
            {
              key: 'issued',
              label: t('ukeyMng.certDialog.issuedByPlatform'),
              children: yesNo(d.issuedByPlatform),
            },
            { key: 'holder', label: t('ukeyMng.certDialog.holderMatches'), children: yesNo(d.holderMatches) },
          ]}
        />
      ) : null}
    </AppDialog>
  );
}

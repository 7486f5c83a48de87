import { Alert, Descriptions, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDay } from '../model/manage-seals';
import type { PageProps } from '../../../lib/page';
import { useSeal } from '../api/seals';
import { StatusTag } from '../components/status-tag';

/** One seal on a phone: its image, kind, status, validity and certificate (`?sealCode=`). */
export function MobileSealDetailPage(_props: PageProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const seal = useSeal(params.get('sealCode'));
  if (seal.isError) return <Alert type="error" showIcon title={t('mobile.seals.notFound')} />;
  const s = seal.data;
  if (!s) return <Spin style={{ display: 'block', padding: 48 }} />;
  return (
    <div data-testid="mobile-seal-detail" data-id={s.sealCode}>
      <section className="os-m-card os-m-section" style={{ textAlign: 'center' }}>
        {s.imageUrl ? (
          <img src={s.imageUrl} alt={s.name} style={{ width: 160, height: 160, objectFit: 'contain' }} />
        ) : null}
        <h2 className="os-m-card__title" style={{ marginTop: 8 }}>
          {s.name}
        </h2>
        <div style={{ marginTop: 8 }}>
          <StatusTag set="sealStatus" value={s.status} />
        </div>
      </section>
      <section className="os-m-card os-m-section">
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('mobile.seals.kind')}>{s.sealKindName}</Descriptions.Item>
          <Descriptions.Item label={t('mobile.seals.code')}>
            <span style={{ overflowWrap: 'anywhere' }}>{s.sealCode}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('mobile.seals.holder')}>
            {s.organizeName ?? s.holderName ?? ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('mobile.seals.validity')}>
            {formatDay(s.validFrom)} ~ {formatDay(s.validTo)}
          </Descriptions.Item>
        </Descriptions>
      </section>
      <section className="os-m-card os-m-section">
        <h3 className="os-m-card__title" style={{ fontSize: 15, marginBottom: 8 }}>
          {t('mobile.seals.cert')}
        </h3>
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('mobile.seals.certSerial')}>
            <span style={{ overflowWrap: 'anywhere', fontFamily: 'monospace' }}>{s.certSerial ?? '—'}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('mobile.seals.certStatus')}>
            {s.certStatus ? <StatusTag set="certStatus" value={s.certStatus} /> : '—'}
          </Descriptions.Item>
        </Descriptions>
      </section>
    </div>
  );
}

import { RightOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { mobileHref } from '../../../lib/device';
import { formatDay } from '../model/manage-seals';
import type { PageProps } from '../../../lib/page';
import { useMySeals } from '../api/seals';
import { StatusTag } from '../components/status-tag';
import { FirstUseTour } from '../../../components/first-use-tour';

const PAGE_SIZE = 10;

/** The seals of the current space as cards (image, kind, status, validity), searchable, paged by "more". */
export function MobileSealListPage(_props: PageProps) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [search, setSearch] = useState<string | undefined>(undefined);
  const [pages, setPages] = useState(1);
  const list = useMySeals({ keyword: search, pageNum: 1, pageSize: PAGE_SIZE * pages });
  const seals = list.data?.list ?? [];
  const total = list.data?.total ?? 0;

  return (
    <div data-testid="mobile-seal-list">
      <Input.Search
        className="os-m-section"
        size="large"
        allowClear
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        onSearch={(v) => {
          setSearch(v.trim() || undefined);
          setPages(1);
        }}
        placeholder={t('sealManage.filters.keyword')}
        data-testid="mobile-seal-search"
      />
      {list.isLoading ? <Spin style={{ display: 'block', padding: 32 }} /> : null}
      {list.data && seals.length === 0 ? (
        <Empty description={t('mobile.seals.empty')} data-testid="mobile-seal-empty">
          <div className="os-m-card__meta">{t('mobile.seals.emptyText')}</div>
        </Empty>
      ) : null}
      {seals.map((s) => (
        <Link
          key={s.sealCode}
          to={`${mobileHref('/sealService/sealDetail')}?sealCode=${encodeURIComponent(s.sealCode)}`}
          className="os-m-card"
          data-testid="mobile-seal-card"
          data-id={s.sealCode}
        >
          <div className="os-m-card__head">
            {s.imageUrl ? (
              <img className="os-m-seal-img" src={s.imageUrl} alt={s.name} />
            ) : (
              <span className="os-m-seal-img" />
            )}
            <div style={{ flex: 1, minWidth: 0 }}>
              <h2 className="os-m-card__title">{s.name}</h2>
              <div className="os-m-card__meta">
                {s.sealKindName} · {t(`mobile.seals.carrier.${s.carrier === 'ukey' ? 'ukey' : 'cloud'}`)}
                <br />
                {t('mobile.seals.validity')}: {formatDay(s.validFrom)} ~ {formatDay(s.validTo)}
              </div>
            </div>
            <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 8 }}>
              <StatusTag set="sealStatus" value={s.status} />
              <RightOutlined />
            </div>
          </div>
        </Link>
      ))}
      {seals.length < total ? (
        <Button
          block
          onClick={() => setPages((p) => p + 1)}
          loading={list.isFetching}
          data-testid="mobile-seal-more"
        >
          {t('mobile.seals.more')}
        </Button>
      ) : null}
      <FirstUseTour
        page="sealList"
        steps={[
          { target: 'mobile-seal-search', key: 'filters' },
          { target: 'mobile-seal-card', key: 'card' },
          { target: 'mobile-tabs', key: 'tabs' },
        ]}
      />
    </div>
  );
}

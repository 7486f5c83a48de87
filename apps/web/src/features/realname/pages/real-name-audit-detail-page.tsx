import { useTranslation } from 'react-i18next';
import { BackHeader } from '../../../components/back-header';
import { ComingSoon } from '../../../components/coming-soon';
import type { PageProps } from '../../../lib/page';

/** /userCenter/infoEnt/realNameAuditDetail: not built yet; the route's title and "coming soon" inside the real layout. */
export function RealNameAuditDetailPage({ route }: PageProps) {
  const { t } = useTranslation();
  const title = t(route.titleKey, { ns: 'route' });
  return (
    <div className="os-page" data-testid="placeholder-page" data-route={route.path}>
      <BackHeader title={title} fallback={route.parent ?? '/'} />
      <div className="os-card">
        <ComingSoon title={title} />
      </div>
    </div>
  );
}

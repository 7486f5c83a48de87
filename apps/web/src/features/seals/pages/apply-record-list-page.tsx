import { PlaceholderPage } from '../../../app/pages/placeholder-page';
import type { PageProps } from '../../../lib/page';

/** Placeholder until the page is built. */
export function ApplyRecordListPage(props: PageProps) {
  return <PlaceholderPage {...props} />;
}

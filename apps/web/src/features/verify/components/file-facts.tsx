import { Descriptions, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../model/format';
import { formatSize, type VerifyReport } from '../model/verify-report';

/** The facts of the verified file and of the verification itself. */
export function FileFacts({ report }: { report: VerifyReport }) {
  const { t } = useTranslation();
  const items = [
    { key: 'name', label: t('verify.file.name'), children: report.fileName },
    {
      key: 'sha',
      label: t('verify.file.sha256'),
      children: <span className="os-verify-mono">{report.sha256}</span>,
    },
    { key: 'size', label: t('verify.file.size'), children: formatSize(report.size) },
    { key: 'revisions', label: t('verify.file.revisions'), children: report.revisions },
    { key: 'at', label: t('verify.file.verifiedAt'), children: formatDateTime(report.verifiedAt) },
    {
      key: 'evidence',
      label: t('verify.file.evidence'),
      children: (
        <Tooltip title={t('verify.file.evidenceHint')}>
          <span data-testid="verify-evidence-index">{report.evidenceIndex}</span>
        </Tooltip>
      ),
    },
    {
      key: 'report',
      label: t('verify.file.reportId'),
      children: <span className="os-verify-mono">{report.reportId}</span>,
    },
    ...(report.encrypted ? [{ key: 'enc', label: '', children: t('verify.file.encrypted') }] : []),
    ...(report.repaired ? [{ key: 'rep', label: '', children: t('verify.file.repaired') }] : []),
  ];
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, sm: 1, md: 2 }}
      title={t('verify.file.title')}
      items={items}
      data-testid="verify-file-facts"
    />
  );
}

import { UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Space, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { useAccountInfo } from '../../../hooks/use-session';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess, toastWarning } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import {
  applyAuthority,
  uploadMaterial,
  useHolders,
  usePermissions,
  useRoles,
  type UploadedFile,
} from '../api/members';
import { OrgOnlyNotice } from '../components/org-only';
import { RoleChecks } from '../components/role-checks';

/** Application files: the `material` rules of the files module (doc/docx/pdf/jpg/png, at most 10 MB). */
const ACCEPT = '.doc,.docx,.pdf,.jpg,.jpeg,.png';
const MAX_BYTES = 10 * 1024 * 1024;

interface Values {
  roles: string[];
  remark?: string;
}

/** /userCenter/infoPersonal/applyAuthority: a member applies for roles with an application file. */
export function ApplyAuthorityPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const account = useAccountInfo();
  const inOrg = Boolean(account.data?.userInfoOrg);
  const permissions = usePermissions();
  const roles = useRoles(inOrg);
  const holders = useHolders(inOrg);
  const [form] = Form.useForm<Values>();
  const [uploaded, setUploaded] = useState<UploadedFile | null>(null);
  const [fileList, setFileList] = useState<UploadFile[]>([]);
  const [submitting, setSubmitting] = useState(false);

  const held = useMemo(() => new Set((permissions.data?.roles ?? []).map((r) => r.code)), [permissions.data]);
  // The legal representative never comes by application, the super administrator only to an empty seat
  // (as the server rules); roles already held need none.
  const seatTaken = holders.data?.superAdmin !== null;
  const applicable = (roles.data?.roles ?? []).filter(
    (r) =>
      r.code !== 'legalPerson' &&
      r.code !== 'staff' &&
      !(r.code === 'superAdmin' && seatTaken) &&
      !held.has(r.code),
  );

  if (!account.data || (inOrg && (roles.isPending || permissions.isPending || holders.isPending)))
    return <PageLoading />;
  const title = t(route.titleKey, { ns: 'route' });

  const submit = async (values: Values) => {
    if (!uploaded) {
      toastWarning(t('members.fileRequired'));
      return;
    }
    setSubmitting(true);
    try {
      await applyAuthority({
        roles: values.roles,
        applyFileKey: uploaded.fileKey,
        remark: values.remark?.trim() || undefined,
      });
      toastSuccess(t('members.applySuccess'));
      void navigate('/userCenter/applyAuthorityRecord');
    } catch (error) {
      handleApiError(error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="os-page" data-testid="apply-authority-page">
      <BackHeader title={title} fallback="/userCenter/infoPersonal" />
      <div className="os-card os-card--form">
        {!inOrg ? (
          <OrgOnlyNotice />
        ) : (
          <>
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              title={t('members.applyHint', { org: account.data.userInfoOrg?.organizeName ?? '' })}
            />
            <Form<Values> form={form} layout="vertical" onFinish={(v) => void submit(v)}>
              <Form.Item
                name="roles"
                label={t('members.applyRoles')}
                rules={[{ required: true, type: 'array', min: 1, message: t('members.rolesRequired') }]}
              >
                <RoleChecks roles={applicable} testIdPrefix="apply-role" />
              </Form.Item>
              <Form.Item label={t('members.applyFile')} extra={t('members.applyFileHint')} required>
                <Upload
                  accept={ACCEPT}
                  maxCount={1}
                  fileList={fileList}
                  data-testid="apply-file"
                  beforeUpload={(file) => {
                    if (file.size > MAX_BYTES) {
                      toastWarning(t('members.fileTooLarge'));
                      return Upload.LIST_IGNORE;
                    }
                    return true;
                  }}
                  onRemove={() => {
                    setUploaded(null);
                    setFileList([]);
                  }}
                  customRequest={({ file, onSuccess, onError }) => {
                    const f = file as File;
                    setFileList([{ uid: f.name, name: f.name, status: 'uploading' }]);
                    uploadMaterial(f)
                      .then((result) => {
                        setUploaded(result);
                        setFileList([{ uid: result.fileKey, name: result.fileName, status: 'done' }]);
                        onSuccess?.(result);
                      })
                      .catch((error: unknown) => {
                        setUploaded(null);
                        setFileList([{ uid: f.name, name: f.name, status: 'error' }]);
                        handleApiError(error);
                        onError?.(error as Error);
                      });
                  }}
                >
                  <Button icon={<UploadOutlined />} data-testid="apply-file-button">
                    {t('members.chooseFile')}
                  </Button>
                </Upload>
              </Form.Item>
              <Form.Item name="remark" label={t('members.remark')} rules={[{ max: 500 }]}>
                <Input.TextArea rows={3} maxLength={500} showCount data-testid="apply-remark" />
              </Form.Item>
              <Space>
                <Button type="primary" htmlType="submit" loading={submitting} data-testid="apply-submit">
                  {t('members.applySubmit')}
                </Button>
                <Button
                  onClick={() => void navigate('/userCenter/applyAuthorityRecord')}
                  data-testid="apply-records"
                >
                  {t('members.authorityRecords')}
                </Button>
              </Space>
            </Form>
          </>
        )}
      </div>
    </div>
  );
}

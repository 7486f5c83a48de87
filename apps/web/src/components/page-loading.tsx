import { Spin } from 'antd';

export function PageLoading({ fullscreen = false }: { fullscreen?: boolean }) {
  if (fullscreen) return <Spin fullscreen />;
  return (
    <div className="os-page-loading" data-testid="page-loading">
      <Spin size="large" />
    </div>
  );
}

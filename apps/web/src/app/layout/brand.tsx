import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSystemConfig } from '../../hooks/use-system-config';

/** The platform emblem used when no TOPIC_LOGO is configured: a round seal with a star. */
export function DefaultEmblem({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" className="os-brand__emblem">
      <circle cx="32" cy="32" r="28" fill="none" stroke="#c8161d" strokeWidth="4" />
      <circle cx="32" cy="32" r="23" fill="none" stroke="#c8161d" strokeWidth="1.2" />
      <path
        d="M32 15l4.6 9.4 10.4 1.5-7.5 7.3 1.8 10.3-9.3-4.9-9.3 4.9 1.8-10.3-7.5-7.3 10.4-1.5z"
        fill="#c8161d"
      />
    </svg>
  );
}

/** Logo and system name from the dynamic configuration, linking home. */
export function Brand({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const config = useSystemConfig();
  const name = config.systemName ?? t('app.defaultName');
  return (
    <Link to="/" className="os-brand" data-testid="brand">
      {config.logo ? (
        <img src={config.logo} alt="" className="os-brand__logo" data-testid="brand-logo" />
      ) : (
        <DefaultEmblem />
      )}
      {compact ? null : (
        <span className="os-brand__name" data-testid="system-name">
          {name}
        </span>
      )}
    </Link>
  );
}

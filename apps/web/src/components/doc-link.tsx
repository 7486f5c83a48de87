import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** An address of this app (the in-app user guide, say), as opposed to another site. */
export function isAppPath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/**
 * A link to the help documents (HELP_DOC_URL): the app's own guide opens in place, another site's
 * documents in a new tab.
 */
export function DocLink({
  url,
  className,
  title,
  testId,
  onClick,
  children,
}: {
  url: string;
  className?: string;
  title?: string;
  testId?: string;
  onClick?: () => void;
  children: ReactNode;
}) {
  if (isAppPath(url))
    return (
      <Link to={url} className={className} title={title} data-testid={testId} onClick={onClick}>
        {children}
      </Link>
    );
  return (
    <a
      href={url}
      className={className}
      title={title}
      data-testid={testId}
      onClick={onClick}
      target="_blank"
      rel="noreferrer"
    >
      {children}
    </a>
  );
}

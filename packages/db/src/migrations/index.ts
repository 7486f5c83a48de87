import type { Migration } from 'kysely';
import * as m0001 from './0001-accounts';
import * as m0002 from './0002-pki';
import * as m0003 from './0003-evidence';
import * as m0004 from './0004-realname';
import * as m0005 from './0005-members';
import * as m0006 from './0006-operators';
import * as m0007 from './0007-sso';
import * as m0008 from './0008-seals';
import * as m0009 from './0009-ukeys';
import * as m0010 from './0010-seal-change-before';
import * as m0011 from './0011-signing';
import * as m0012 from './0012-verify-reports';
import * as m0013 from './0013-evidence-openings';
import * as m0014 from './0014-login-throttle';
import * as m0015 from './0015-trust-anchors';
import * as m0016 from './0016-reserved-role-points';
import * as m0017 from './0017-evidence-frontier';
import * as m0018 from './0018-write-notifications';
import * as m0019 from './0019-short-links';
import * as m0020 from './0020-service-ratings';
import * as m0021 from './0021-pdf-passwords';
import * as m0022 from './0022-verify-owners-guides-ukey-requests';

/** Versioned migrations, applied in key order. Never edit one that has shipped; add the next. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': m0001,
  '0002-pki': m0002,
  '0003-evidence': m0003,
  '0004-realname': m0004,
  '0005-members': m0005,
  '0006-operators': m0006,
  '0007-sso': m0007,
  '0008-seals': m0008,
  '0009-ukeys': m0009,
  '0010-seal-change-before': m0010,
  '0011-signing': m0011,
  '0012-verify-reports': m0012,
  '0013-evidence-openings': m0013,
  '0014-login-throttle': m0014,
  '0015-trust-anchors': m0015,
  '0016-reserved-role-points': m0016,
  '0017-evidence-frontier': m0017,
  '0018-write-notifications': m0018,
  '0019-short-links': m0019,
  '0020-service-ratings': m0020,
  '0021-pdf-passwords': m0021,
  '0022-verify-owners-guides-ukey-requests': m0022,
};

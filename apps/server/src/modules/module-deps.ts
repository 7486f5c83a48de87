import type { AppConfig } from '../config';
import type { AccountsService } from './accounts/accounts.service';
import type { ConfigService } from './config/config.service';
import type { EvidenceService } from './evidence/evidence.service';
import type { FilesService } from './files/files.service';
import type { LinksService } from './links/links.service';
import type { LoginThrottle } from './login-throttle/login-throttle.service';
import type { MsgsService } from './msgs/msgs.service';
import type { OrganizesService } from './organizes/organizes.service';
import type { PkiService } from './pki/pki.service';
import type { SessionService } from './session/session.service';
import type { WorkPool } from '../workers/work-pool';

/** What app.ts hands every feature plugin; a plugin builds its own services from the parts it uses. */
export interface ModuleDeps {
  appConfig: AppConfig;
  /** The platform secret (APP_SECRET or the generated one): HMACs of codes, signed addresses. */
  secret: string;
  accounts: AccountsService;
  organizes: OrganizesService;
  sessions: SessionService;
  msgs: MsgsService;
  files: FilesService;
  /** Short links for text messages, QR codes of this site's addresses. */
  links: LinksService;
  config: ConfigService;
  pki: PkiService;
  evidence: EvidenceService;
  /** Wrong passwords per (account, client address), for users and operators. */
  loginThrottle: LoginThrottle;
  /** The worker pool (parsing, verification, image work, signing). */
  work: WorkPool;
}

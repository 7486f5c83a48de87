#!/usr/bin/env node
// Makes sure the system tools that the tests use as independent referees are present.
//
// As root on Debian/Ubuntu it installs whatever is missing with apt-get. Anywhere else it prints one
// notice per missing tool and exits 0: the tests that need a tool skip with their own notice, so a
// developer's `npm test` never fails only because they are not root. When everything is present it
// is a fast no-op (file checks only, no subprocess).
//
// Exit code: 0, except when CI is set and an install that was tried did not succeed, because a CI run
// whose referees silently skipped would prove nothing.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** What the tests need, how to tell it is there, and what skips without it. */
const TOOLS = [
  {
    name: 'chromium',
    pkg: 'chromium',
    present: () => existsSync('/usr/bin/chromium') || hasCommand('chromium'),
    skips: 'browser end-to-end tests (e2e/) and page screenshots',
  },
  {
    name: 'CJK fonts',
    pkg: 'fonts-noto-cjk',
    present: hasCjkFont,
    skips: 'Chinese text in screenshots and font-dependent seal-image checks',
  },
  {
    name: 'pdfsig/pdftoppm',
    pkg: 'poppler-utils',
    present: () => hasCommand('pdfsig') && hasCommand('pdftoppm'),
    skips: 'PDF signature checks by pdfsig and page rendering by pdftoppm',
  },
  {
    name: 'qpdf',
    pkg: 'qpdf',
    present: () => hasCommand('qpdf'),
    skips: 'PDF structure checks (qpdf --check)',
  },
  {
    name: 'softhsm2',
    pkg: 'softhsm2',
    present: () => hasCommand('softhsm2-util') && findSoftHsmModule() !== undefined,
    skips: 'PKCS#11 key-store tests on SoftHSM',
  },
  {
    name: 'openssl',
    pkg: 'openssl',
    present: () => hasCommand('openssl'),
    skips: 'certificate, CMS and timestamp checks by openssl',
  },
];

const SOFTHSM_MODULES = [
  '/usr/lib/softhsm/libsofthsm2.so',
  '/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so',
  '/usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so',
  '/usr/local/lib/softhsm/libsofthsm2.so',
  '/opt/homebrew/lib/softhsm/libsofthsm2.so',
];

const CJK_FONT_DIRS = [
  '/usr/share/fonts/opentype/noto',
  '/usr/share/fonts/truetype/noto',
  '/usr/share/fonts/noto-cjk',
  '/usr/share/fonts/google-noto-cjk',
  '/System/Library/Fonts',
  '/Library/Fonts',
];

function hasCommand(cmd) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, cmd), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

function findSoftHsmModule() {
  return SOFTHSM_MODULES.find((p) => existsSync(p));
}

function hasCjkFont() {
  for (const dir of CJK_FONT_DIRS) {
    let names;
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    if (names.some((n) => /(CJK|PingFang|Hiragino|SourceHan)/i.test(n))) return true;
  }
  return false;
}

function missingTools() {
  return TOOLS.filter((t) => !t.present());
}

function say(line) {
  process.stderr.write(`ensure-test-deps: ${line}\n`);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (r.error) say(`${cmd} could not start: ${r.error.message}`);
  return r.status === 0;
}

function notice(tools, why) {
  for (const t of tools) {
    say(`${t.name} not found (${why}; Debian package ${t.pkg}): ${t.skips} will skip.`);
  }
}

function main() {
  const missing = missingTools();
  if (missing.length === 0) return 0;

  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = hasCommand('apt-get');
  if (!isRoot || !hasApt) {
    notice(missing, !hasApt ? 'no apt-get to install it with' : 'not root, so not installing it');
    return 0;
  }

  const pkgs = [...new Set(missing.map((t) => t.pkg))];
  say(`installing ${pkgs.join(' ')} (for ${missing.map((t) => t.name).join(', ')})`);
  // Wait for a concurrent apt/dpkg run instead of failing on its lock.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=300'];
  const updated = run('apt-get', [...lockWait, '-q', 'update']);
  if (!updated) say('apt-get update failed; trying the install with the package lists as they are');
  run('apt-get', [...lockWait, '-q', '-y', '--no-install-recommends', 'install', ...pkgs]);

  const still = missingTools();
  if (still.length === 0) {
    say('all test tools present');
    return 0;
  }
  notice(still, 'apt-get install did not provide it');
  return process.env.CI ? 1 : 0;
}

process.exitCode = main();

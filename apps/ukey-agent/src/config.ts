import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { contracts } from '@openseal/core';
import { findSoftHsmModule } from '@openseal/pki';

/** Where a generic PKCS#11 module is commonly installed; a vendor's module is named with UKEY_PKCS11_MODULE. */
const GENERIC_MODULES = [
  '/usr/lib/x86_64-linux-gnu/opensc-pkcs11.so',
  '/usr/lib/aarch64-linux-gnu/opensc-pkcs11.so',
  '/usr/lib/opensc-pkcs11.so',
  '/Library/OpenSC/lib/opensc-pkcs11.so',
  'C:\\Windows\\System32\\opensc-pkcs11.dll',
];

export interface AgentConfig {
  /** Always loopback: the agent is reachable from this computer only. */
  host: '127.0.0.1';
  port: number;
  /** The PKCS#11 module; undefined when none was named or found (every key call then answers 7001). */
  modulePath: string | undefined;
  /** Browser origins of the platform allowed to call the agent (exact scheme://host[:port]). */
  allowedOrigins: string[];
  /** Wrong PINs before the key locks, counted on the token. */
  pinMaxTries: number;
  /** PIN-taking calls per key and minute. */
  pinCallsPerMinute: number;
  logLevel: 'silent' | 'info' | 'debug';
}

const DEFAULT_ORIGINS = [
  'http://localhost:8080',
  'http://127.0.0.1:8080',
  'http://localhost:5173',
  'http://127.0.0.1:5173',
];

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`${name} must be an integer 0-65535: ${raw}`);
  return n;
}

function normaliseOrigin(raw: string): string {
  const url = new URL(raw.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) origin: ${raw}`);
  return url.origin;
}

/** Settings from the environment, overridden by command-line flags (`--port`, `--module`, `--origin` repeated). */
export function loadAgentConfig(
  env: Record<string, string | undefined> = process.env,
  argv: string[] = process.argv.slice(2),
): AgentConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      module: { type: 'string' },
      origin: { type: 'string', multiple: true },
      'pin-max-tries': { type: 'string' },
    },
    strict: true,
  });
  const origins =
    values.origin ??
    (env.UKEY_AGENT_ORIGINS ? env.UKEY_AGENT_ORIGINS.split(',').filter((o) => o.trim()) : DEFAULT_ORIGINS);
  const named = values.module ?? env.UKEY_PKCS11_MODULE;
  const pinMaxTries = positiveInt('UKEY_PIN_MAX_TRIES', values['pin-max-tries'] ?? env.UKEY_PIN_MAX_TRIES, 6);
  if (pinMaxTries < 1) throw new Error('UKEY_PIN_MAX_TRIES must be at least 1');
  const logLevel = env.UKEY_AGENT_LOG_LEVEL ?? 'info';
  if (logLevel !== 'silent' && logLevel !== 'info' && logLevel !== 'debug')
    throw new Error(`UKEY_AGENT_LOG_LEVEL must be silent, info or debug: ${logLevel}`);
  return {
    host: '127.0.0.1',
    port: positiveInt(
      'UKEY_AGENT_PORT',
      values.port ?? env.UKEY_AGENT_PORT,
      contracts.UKEY_AGENT_DEFAULT_PORT,
    ),
    // A named module is kept even when missing, so the agent reports "driver not installed" instead of
    // silently falling back to another one.
    modulePath: named || findSoftHsmModule() || GENERIC_MODULES.find((p) => existsSync(p)),
    allowedOrigins: origins.map(normaliseOrigin),
    pinMaxTries,
    pinCallsPerMinute: positiveInt('UKEY_PIN_CALLS_PER_MINUTE', env.UKEY_PIN_CALLS_PER_MINUTE, 10) || 10,
    logLevel,
  };
}

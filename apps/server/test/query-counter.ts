/**
 * Counts the statements an app sends to its database, as a Kysely plugin on the app's handle (every
 * module, transactions included; BEGIN and COMMIT are not statements here). Each is recorded with its
 * kind and the tables it names, so a test can count, say, everything but the evidence log's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

export interface CountedStatement {
  /** `SelectQueryNode`, `InsertQueryNode`, `UpdateQueryNode`, `DeleteQueryNode`, `RawNode`, … */
  kind: string;
  /** Tables the statement names, in order of appearance (none for raw SQL). */
  tables: string[];
}

export interface QueryCounter {
  plugin: KyselyPlugin;
  /** Statements executed since the last reset. */
  readonly statements: readonly CountedStatement[];
  reset(): void;
  /**
   * The statements `fn` caused: those sent from its asynchronous context (a request injected there, and
   * the callbacks its work answers), not the app's background jobs meanwhile.
   */
  during(fn: () => Promise<unknown>): Promise<CountedStatement[]>;
}

function tablesOf(node: unknown, out: string[] = [], depth = 0): string[] {
  if (!node || typeof node !== 'object' || depth > 64) return out;
  const n = node as { kind?: unknown; table?: { identifier?: { name?: unknown } } };
  // A column reference names its table's alias, not a table the statement reads.
  if (n.kind === 'ReferenceNode') return out;
  if (n.kind === 'TableNode' && typeof n.table?.identifier?.name === 'string') {
    if (!out.includes(n.table.identifier.name)) out.push(n.table.identifier.name);
    return out;
  }
  for (const value of Object.values(node)) tablesOf(value, out, depth + 1);
  return out;
}

export function createQueryCounter(): QueryCounter {
  let statements: CountedStatement[] = [];
  const scope = new AsyncLocalStorage<CountedStatement[]>();
  const pending = new Map<unknown, { statement: CountedStatement; into?: CountedStatement[] }>();
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const statement = { kind: args.node.kind, tables: tablesOf(args.node) };
      const into = scope.getStore();
      pending.set(args.queryId, into ? { statement, into } : { statement });
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      const p = pending.get(args.queryId);
      pending.delete(args.queryId);
      const statement = p?.statement ?? { kind: 'unknown', tables: [] };
      statements.push(statement);
      p?.into?.push(statement);
      return args.result;
    },
  };
  return {
    plugin,
    get statements() {
      return statements;
    },
    reset() {
      statements = [];
    },
    async during(fn) {
      const mine: CountedStatement[] = [];
      await scope.run(mine, fn);
      return mine;
    },
  };
}

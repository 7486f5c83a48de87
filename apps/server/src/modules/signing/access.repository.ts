import type { Db } from '@openseal/db';

/** The flows a stored file was uploaded into (an owner may start several flows with one upload). */
export const flowsWithOriginal = (db: Db, fileKey: string) =>
  db
    .selectFrom('sign_flow_files')
    .select('flow_id')
    .distinct()
    .where('original_file_key', '=', fileKey)
    .orderBy('flow_id')
    .limit(20)
    .execute()
    .then((rows) => rows.map((r) => r.flow_id));

/** The flow a task belongs to. */
export const flowOfTask = (db: Db, taskId: string) =>
  db
    .selectFrom('sign_tasks')
    .select('flow_id')
    .where('id', '=', taskId)
    .executeTakeFirst()
    .then((r) => r?.flow_id ?? null);

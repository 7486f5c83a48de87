import { Card, Empty, Pagination, Spin, Table, type TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { HTMLAttributes, Key, ReactNode } from 'react';
import { useIsMobile } from '../hooks/use-is-mobile';

/**
 * A table on a wide screen, a card per row on a phone: each card lists the columns as label and value,
 * rendered as the table renders them, and carries the attributes `onRow` gives a row (test ids, states).
 * A column without a title (an index, say) leads the card's first line.
 */
export function ResponsiveTable<T extends object>(
  props: Omit<TableProps<T>, 'columns' | 'dataSource'> & {
    columns: ColumnType<T>[];
    dataSource: readonly T[];
    /** The card's heading on a phone; default the first titled column's value. */
    cardTitle?: (row: T, index: number) => ReactNode;
  },
) {
  const mobile = useIsMobile();
  const { columns, dataSource, cardTitle, onRow, rowKey, ...rest } = props;
  const { loading, locale, pagination } = rest;
  if (!mobile)
    return (
      <Table<T> {...rest} rowKey={rowKey} columns={columns} dataSource={[...dataSource]} onRow={onRow} />
    );

  const keyOf = (row: T, i: number): Key =>
    typeof rowKey === 'function'
      ? rowKey(row)
      : rowKey
        ? ((row as Record<string, unknown>)[rowKey as string] as Key)
        : i;
  const valueOf = (col: ColumnType<T>, row: T, i: number): ReactNode => {
    const raw =
      col.dataIndex !== undefined ? (row as Record<string, unknown>)[String(col.dataIndex)] : undefined;
    return col.render ? (col.render(raw, row, i) as ReactNode) : (raw as ReactNode);
  };
  const titled = columns.filter((c) => c.title !== undefined && c.title !== '#');
  const [head, ...body] = titled;

  const busy = typeof loading === 'object' ? Boolean(loading.spinning) : Boolean(loading);
  const pages = pagination && typeof pagination === 'object' ? pagination : null;
  return (
    <div className="os-card-rows" data-testid={(rest as { 'data-testid'?: string })['data-testid']}>
      {busy ? (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      ) : null}
      {!busy && dataSource.length === 0
        ? ((locale?.emptyText as ReactNode) ?? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />)
        : null}
      {dataSource.map((row, i) => (
        <Card
          key={keyOf(row, i)}
          size="small"
          style={{ marginBottom: 8 }}
          {...((onRow?.(row, i) ?? {}) as HTMLAttributes<HTMLDivElement>)}
        >
          <div style={{ fontWeight: 600, marginBottom: 6 }}>
            {cardTitle ? cardTitle(row, i) : head ? valueOf(head, row, i) : null}
          </div>
          {(cardTitle ? titled : body).map((col, c) => {
            const value = valueOf(col, row, i);
            if (value === null || value === undefined || value === '') return null;
            return (
              <div key={String(col.key ?? c)} style={{ display: 'flex', gap: 8, padding: '2px 0' }}>
                <span style={{ flex: '0 0 88px', color: 'var(--os-text-secondary, #6b7280)' }}>
                  {col.title as ReactNode}
                </span>
                <span style={{ flex: '1 1 auto', minWidth: 0, overflowWrap: 'anywhere' }}>{value}</span>
              </div>
            );
          })}
        </Card>
      ))}
      {pages && (pages.total ?? 0) > (pages.pageSize ?? 10) ? (
        <Pagination
          simple
          style={{ marginTop: 8, textAlign: 'center' }}
          current={pages.current}
          pageSize={pages.pageSize}
          total={pages.total}
          onChange={pages.onChange}
        />
      ) : null}
    </div>
  );
}

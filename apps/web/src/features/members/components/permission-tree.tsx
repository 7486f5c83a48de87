import { Tree } from 'antd';
import type { TreeDataNode } from 'antd';
import { useMemo } from 'react';
import { pointsOfKeys, type PermissionGroup } from '../model/permission-tree';

/**
 * The function-permission tree the server answers, as checkable antd Trees: one per group, side by side,
 * so the whole tree fits a dialog without scrolling (groups share no points, so nothing is lost by
 * splitting them). The value is the list of points; group keys never leave it. Read-only shows the same
 * tree with its boxes locked, so built-in roles read exactly like the editor. Each node title carries
 * `role-point-<code>` and `data-checked` for tests; clicking a title toggles its box.
 */
export function PermissionTree(props: {
  tree: readonly PermissionGroup[];
  value?: string[];
  onChange?: (points: string[]) => void;
  readOnly?: boolean;
  testId?: string;
}) {
  const { tree, readOnly = false } = props;
  const checked = useMemo(() => pointsOfKeys(tree, props.value ?? []), [tree, props.value]);
  const held = new Set(checked);

  const groupData = (g: PermissionGroup): TreeDataNode[] => [
    {
      key: g.code,
      disableCheckbox: readOnly,
      title: (
        <span data-testid={`role-group-${g.code}`} style={{ fontWeight: 500 }}>
          {g.name}
        </span>
      ),
      children: g.children.map((p) => ({
        key: p.code,
        disableCheckbox: readOnly,
        title: (
          <span data-testid={`role-point-${p.code}`} data-checked={held.has(p.code)}>
            {p.name}
          </span>
        ),
      })),
    },
  ];

  return (
    <div
      data-testid={props.testId ?? 'role-tree'}
      style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 8 }}
    >
      {tree.map((g) => {
        const own = new Set(g.children.map((p) => p.code));
        const mine = checked.filter((p) => own.has(p));
        // Locked boxes take no part in antd's parent-child conduction, so a read-only group is marked
        // checked or half-checked here.
        const groupState = mine.length === 0 ? null : mine.length === own.size ? 'full' : 'half';
        return (
          <Tree
            key={g.code}
            checkable
            selectable={false}
            defaultExpandAll
            style={{ background: 'transparent' }}
            treeData={groupData(g)}
            checkStrictly={readOnly}
            checkedKeys={
              readOnly
                ? {
                    checked: groupState === 'full' ? [...mine, g.code] : mine,
                    halfChecked: groupState === 'half' ? [g.code] : [],
                  }
                : mine
            }
            onCheck={(keys) => {
              if (readOnly) return;
              const now = pointsOfKeys([g], Array.isArray(keys) ? keys : keys.checked);
              props.onChange?.(pointsOfKeys(tree, [...checked.filter((p) => !own.has(p)), ...now]));
            }}
          />
        );
      })}
    </div>
  );
}

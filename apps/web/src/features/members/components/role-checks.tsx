import { Checkbox, Space } from 'antd';

/** A checkbox per role; each box carries `member-role-<code>` for tests. */
export function RoleChecks(props: {
  roles: readonly { code: string; name: string }[];
  value?: string[];
  onChange?: (value: string[]) => void;
  testIdPrefix?: string;
}) {
  const prefix = props.testIdPrefix ?? 'member-role';
  return (
    <Checkbox.Group value={props.value} onChange={(v) => props.onChange?.(v)}>
      <Space size={[12, 8]} wrap>
        {props.roles.map((r) => (
          <Checkbox key={r.code} value={r.code} data-testid={`${prefix}-${r.code}`}>
            {r.name}
          </Checkbox>
        ))}
      </Space>
    </Checkbox.Group>
  );
}

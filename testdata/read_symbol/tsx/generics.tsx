export const identity = <T,>(value: T) => value;

export const List = <T extends { id: string }>({ items }: { items: T[] }) => (
  <ul>
    {items.map((item) => (
      <li key={item.id}>{String(item)}</li>
    ))}
  </ul>
);

export function Select<T>(props: { options: T[] }) {
  return <select>{props.options.length}</select>;
}

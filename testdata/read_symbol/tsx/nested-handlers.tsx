// Handlers and helpers bound inside a component nest under it; a hook's
// returned literal lists its functions.
export function Toolbar({ onSave }: Props) {
  const [open, setOpen] = useState(false);
  const handleSave = useCallback(() => onSave(), [onSave]);
  const toggle = () => setOpen((o) => !o);
  const renderItem = (item: Item) => <li key={item.id}>{item.label}</li>;
  return <div onClick={toggle}>{open && <Menu render={renderItem} />}</div>;
}

export const Panel = ({ title }: { title: string }) => {
  const styles = { header: { fontWeight: "bold" } };
  const onClose = () => {};
  return <header style={styles.header}>{title}</header>;
};

export function useCounter(initial = 0) {
  const [count, setCount] = useState(initial);
  return {
    count,
    increment: () => setCount((c) => c + 1),
    reset() {
      setCount(initial);
    },
  };
}

const Dialog = class extends React.Component<Props> {
  render() {
    return <div />;
  }
};

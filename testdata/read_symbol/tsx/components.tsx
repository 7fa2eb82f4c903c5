import React, { forwardRef, memo, useState } from "react";

type ButtonProps = {
  label: string;
  onPress?: () => void;
};

export function Button({ label, onPress }: ButtonProps) {
  const [pressed, setPressed] = useState(false);
  const handlePress = () => {
    setPressed(true);
    onPress?.();
  };
  return <button onClick={handlePress}>{label}</button>;
}

export const Card = ({ title }: { title: string }) => (
  <div className="card">
    <h2>{title}</h2>
  </div>
);

const Row: React.FC<{ children: React.ReactNode }> = ({ children }) => <div>{children}</div>;

export const Input = forwardRef<HTMLInputElement, { value: string }>((props, ref) => (
  <input ref={ref} {...props} />
));

export const Memoized = memo(function Memoized() {
  return <span />;
});

export default function App() {
  function renderHeader() {
    return <header />;
  }
  return (
    <main>
      {renderHeader()}
      <Button label="ok" />
    </main>
  );
}

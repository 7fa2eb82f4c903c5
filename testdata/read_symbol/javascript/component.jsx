import React, { useState } from "react";

export function Counter({ initial }) {
  const [count, setCount] = useState(initial);
  const increment = () => setCount(count + 1);
  return <button onClick={increment}>{count}</button>;
}

export const Badge = ({ label }) => <span className="badge">{label}</span>;

export default class Page extends React.Component {
  state = { open: false };

  toggle = () => this.setState({ open: !this.state.open });

  render() {
    return (
      <div>
        <Counter initial={0} />
      </div>
    );
  }
}

import * as React from "react";

interface CounterProps {
  initial: number;
}

interface CounterState {
  count: number;
}

export class Counter extends React.Component<CounterProps, CounterState> {
  static defaultProps = { initial: 0 };

  state: CounterState = { count: this.props.initial };

  componentDidMount(): void {}

  increment = () => {
    this.setState(({ count }) => ({ count: count + 1 }));
  };

  private renderLabel(): JSX.Element {
    return <span>{this.state.count}</span>;
  }

  render() {
    return <button onClick={this.increment}>{this.renderLabel()}</button>;
  }
}

function App() { return <div />; }

export default function () {
  return <div>anonymous page</div>;
}

export const config = { runtime: "edge" };

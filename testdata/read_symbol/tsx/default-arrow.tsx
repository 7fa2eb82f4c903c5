import { Layout } from "./layout";

export const metadata = {
  title: "Home",
};

export default () => (
  <Layout>
    <p>home</p>
  </Layout>
);

import styled from "styled-components";
import { StyleSheet } from "react-native";

export const Title = styled.h1`
  font-size: 2em;
`;

const styles = StyleSheet.create({
  container: {
    flex: 1,
  },
});

export enum Size {
  Small = "sm",
  Large = "lg",
}

export type Variant = "primary" | "secondary";

export default styles;

/// <reference types="node" />

declare module "express-serve-static-core" {
  interface Request {
    user?: User;
  }
  export function json(options?: object): Handler;
  export const version: string;
  global {
    interface Window {
      appConfig: Config;
    }
  }
}

declare module "*.svg" {
  const content: string;
  export default content;
}

declare module "no-body";

declare global {
  interface Array<T> {
    last(): T | undefined;
  }
  function structuredClone<T>(value: T): T;
  const __DEV__: boolean;
  var __APP__: string;
}

declare function greet(name: string): void;
declare function greet(names: string[]): void;

declare class Widget {
  constructor(el: HTMLElement);
  render(): void;
  static version: string;
}

export declare abstract class Base {
  protected abstract init(): void;
}

declare const VERSION: string;
declare let mutable: number;
declare var legacy: number;

declare namespace NodeJS {
  interface ProcessEnv {
    NODE_ENV: "development" | "production";
  }
  function cwd(): string;
  const platform: string;
}

export declare function exported(): void;
export declare const exportedConst: number;

export {};

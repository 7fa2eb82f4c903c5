@injectable()
export default class {
  run(): void {}
}

export const after = 1;

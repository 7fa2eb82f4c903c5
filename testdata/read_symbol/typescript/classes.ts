import { Component, Input } from "./decorators";

@Component({
  selector: "app-root",
})
export class AppComponent<T> extends Base implements OnInit {
  @Input()
  title: string = "app";
  static instances = 0;
  #secret = 42;
  private readonly items: T[] = [];

  constructor(private readonly service: Service) {
    super();
  }

  ngOnInit(): void {}

  get count(): number {
    return this.items.length;
  }

  set count(value: number) {}

  static create(): AppComponent<unknown> {
    return new AppComponent(null!);
  }

  #reset(): void {}

  protected async refresh(): Promise<void> {}

  *entries(): IterableIterator<T> {}

  [Symbol.iterator]() {
    return this.items[Symbol.iterator]();
  }

  "quoted-name"() {}

  handleClick = (event: MouseEvent) => {
    this.refresh();
  };

  private onKey = function (this: AppComponent<T>, key: string) {};

  static #registry = new Map<string, number>();

  find(id: string): T;
  find(id: number): T;
  find(id: string | number): T {
    return this.items[0];
  }
}

export abstract class Shape {
  abstract area(): number;
  abstract get name(): string;
  describe(): string {
    return this.name;
  }
}

class Empty {}

export default class Store {
  save() {}
}

import { observer } from "mobx-react";
import { action, observable } from "mobx";

class TodoStore {
  @observable
  todos: string[] = [];

  @action
  add(todo: string) {
    this.todos.push(todo);
  }

  @action.bound
  clear = () => {
    this.todos = [];
  };
}

export const store = new TodoStore();

export const TodoList = observer(() => <ul>{store.todos.length}</ul>);

namespace Internal {
  export const Hidden = () => <i />;
}

class Worker {
  void run() {
    Runnable r = () -> System.out.println("lambda");
    Object o = new Object() {
      @Override
      public String toString() { return "anonymous"; }
    };
    class Helper {
      void help() {}
    }
    final int LOCAL_LIMIT = 3;
  }
}

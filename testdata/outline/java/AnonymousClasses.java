public interface CookiePolicy {
  public static final CookiePolicy ACCEPT_ALL = new CookiePolicy() {
    public boolean shouldAccept(URI uri, HttpCookie cookie) { return true; }
  };
  public boolean shouldAccept(URI uri, HttpCookie cookie);
}
class Scan {
  private final Comparator<String> byLength = new Comparator<>() {
    public int compare(String a, String b) { return a.length() - b.length(); }
  };
  private Map<String, Integer> counts = new HashMap<>() {{ put("a", 1); }};
  void run(CompilationUnitTree cu) {
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitCompilationUnit(CompilationUnitTree t, Void v) { return null; }
    }.scan(cu, null);
    Runnable r = new Runnable() {
      public void run() {}
    };
  }
}

// JavaOutline prints the outline entries zumba should list for Java
// files, as the JDK's own parser (javac's com.sun.source.tree, parse only)
// sees them. It is the oracle of outline/java_diff_test.go:
//
//   java --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED \
//        --add-exports jdk.compiler/com.sun.tools.javac.code=ALL-UNNAMED \
//        JavaOutline.java FILELIST
//
// FILELIST names one .java file a line. For each file it prints
// "PATH\tLINE\tKIND\tNAME\tPARENT" lines, or "PATH\t!\tMESSAGE" when javac
// cannot parse the file. KIND is class (classes and records), interface
// (interfaces and annotation types), enum, function (methods,
// constructors, annotation elements) or const (static final fields and
// interface fields). A field or local variable holding an anonymous class
// with methods is a class of that name (a const stays a const), and the
// anonymous class's members nest under it; other anonymous classes nest
// their members under the enclosing entry. PARENT is the name of the
// nearest enclosing entry, "" at the top.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.tree.JCTree;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import javax.tools.*;

public class JavaOutline {
  public static void main(String[] args) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> paths = Files.readAllLines(Path.of(args[0]));
    StringBuilder out = new StringBuilder();
    try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      // Batches bound the memory the parsed trees take.
      for (int i = 0; i < paths.size(); i += 200) {
        List<String> batch = paths.subList(i, Math.min(paths.size(), i + 200));
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        JavacTask task = (JavacTask) javac.getTask(null, fm, diags, List.of("-proc:none", "-Xlint:none", "-nowarn"), null,
            fm.getJavaFileObjectsFromStrings(batch));
        Map<String, String> bad = new HashMap<>();
        Iterable<? extends CompilationUnitTree> units = task.parse();
        for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
          if (d.getKind() == Diagnostic.Kind.ERROR && d.getSource() != null) {
            bad.putIfAbsent(d.getSource().getName(), d.getMessage(Locale.ROOT).replace('\n', ' ').replace('\t', ' '));
          }
        }
        for (CompilationUnitTree cu : units) {
          String path = cu.getSourceFile().getName();
          if (bad.containsKey(path)) {
            out.append(path).append("\t!\t").append(bad.get(path)).append('\n');
            continue;
          }
          new Scan(cu, path, out).scan(cu, "");
        }
        System.out.print(out);
        out.setLength(0);
      }
    }
  }

  static class Scan extends TreePathScanner<Void, String> {
    final CompilationUnitTree cu;
    final String path;
    final StringBuilder out;
    final CharSequence text;
    final Deque<ClassTree> classes = new ArrayDeque<>();

    Scan(CompilationUnitTree cu, String path, StringBuilder out) throws java.io.IOException {
      this.cu = cu;
      this.path = path;
      this.out = out;
      this.text = cu.getSourceFile().getCharContent(true);
    }

    // line is the line of the first whole-word occurrence of name at or
    // after the tree's position (javac puts a class at its keyword, a
    // method or variable at its name).
    long line(Tree t, String name) {
      int pos = ((JCTree) t).pos;
      for (int i = Math.max(pos, 0); i + name.length() <= text.length(); i++) {
        if (regionIs(i, name)) {
          return cu.getLineMap().getLineNumber(i);
        }
      }
      return cu.getLineMap().getLineNumber(pos);
    }

    boolean regionIs(int i, String name) {
      for (int k = 0; k < name.length(); k++) {
        if (text.charAt(i + k) != name.charAt(k)) {
          return false;
        }
      }
      boolean before = i > 0 && Character.isJavaIdentifierPart(text.charAt(i - 1));
      int end = i + name.length();
      boolean after = end < text.length() && Character.isJavaIdentifierPart(text.charAt(end));
      return !before && !after;
    }

    void emit(Tree t, String kind, String name, String parent) {
      out.append(path).append('\t').append(line(t, name)).append('\t').append(kind).append('\t')
          .append(name).append('\t').append(parent).append('\n');
    }

    @Override
    public Void visitClass(ClassTree t, String parent) {
      String name = t.getSimpleName().toString();
      classes.push(t);
      try {
        if (name.isEmpty()) {
          // An anonymous class: its members belong to what holds it.
          return super.visitClass(t, parent);
        }
        String kind = switch (t.getKind()) {
          case INTERFACE, ANNOTATION_TYPE -> "interface";
          case ENUM -> "enum";
          default -> "class";
        };
        emit(t, kind, name, parent);
        return scan(t.getMembers(), name);
      } finally {
        classes.pop();
      }
    }

    @Override
    public Void visitMethod(MethodTree m, String parent) {
      String name = m.getName().toString();
      if (name.equals("<init>")) {
        name = classes.peek().getSimpleName().toString();
      }
      emit(m, "function", name, parent);
      scan(m.getDefaultValue(), name);
      return scan(m.getBody(), name);
    }

    @Override
    public Void visitVariable(VariableTree v, String parent) {
      String name = v.getName().toString();
      Tree up = getCurrentPath().getParentPath().getLeaf();
      long flags = ((JCTree.JCVariableDecl) v).mods.flags;
      String holder = parent;
      if ((flags & Flags.ENUM) != 0) {
        // An enum constant is not an entry; its body's members belong to
        // the enum.
        return scan(v.getInitializer(), parent);
      }
      boolean field = up instanceof ClassTree;
      Set<javax.lang.model.element.Modifier> mods = v.getModifiers().getFlags();
      boolean constant = field && ((mods.contains(javax.lang.model.element.Modifier.STATIC)
          && mods.contains(javax.lang.model.element.Modifier.FINAL))
          || ((ClassTree) up).getKind() == Tree.Kind.INTERFACE
          || ((ClassTree) up).getKind() == Tree.Kind.ANNOTATION_TYPE);
      if (constant) {
        emit(v, "const", name, parent);
        holder = name;
      } else if (v.getInitializer() instanceof NewClassTree n && n.getClassBody() != null
          && n.getClassBody().getMembers().stream().anyMatch(x -> x instanceof MethodTree)) {
        emit(v, "class", name, parent);
        holder = name;
      }
      return scan(v.getInitializer(), holder);
    }
  }
}

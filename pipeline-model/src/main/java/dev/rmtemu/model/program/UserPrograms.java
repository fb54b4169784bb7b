package dev.rmtemu.model.program;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.rmtemu.model.UserError;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A user's own program, named on the command line instead of a built-in name:
 * a {@code .java} file, compiled in the process by the JDK's compiler against
 * the program API (errors as {@code FILE:LINE: message}), or a jar and a class
 * name ({@code my.jar!com.example.MyProgram}). The class must implement
 * {@link ProgramFactory} and have a public no-argument constructor.
 */
public final class UserPrograms {
    /** Separates a jar's path from the class name in {@code JAR!CLASS}. */
    public static final String JAR_CLASS_SEPARATOR = "!";
    /** Compile errors shown before "and N more". */
    static final int MAX_ERRORS_SHOWN = 20;

    private UserPrograms() {
    }

    /** True when {@code spec} names a user's program rather than a built-in one. */
    public static boolean isUserProgram(String spec) {
        return spec.endsWith(".java") || spec.contains(".jar" + JAR_CLASS_SEPARATOR);
    }

    public static ProgramFactory load(String spec) {
        if (spec.endsWith(".java")) {
            return fromSource(Path.of(spec));
        }
        int bang = spec.indexOf(".jar" + JAR_CLASS_SEPARATOR) + ".jar".length();
        return fromJar(Path.of(spec.substring(0, bang)), spec.substring(bang + 1));
    }

    static ProgramFactory fromJar(Path jar, String className) {
        if (!Files.isRegularFile(jar)) {
            throw new UserError("program jar " + jar + ": no such file");
        }
        URL url;
        try {
            url = jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new UserError("program jar " + jar + ": " + e.getMessage(), e);
        }
        ClassLoader loader = new URLClassLoader(new URL[] {url}, UserPrograms.class.getClassLoader());
        return instantiate(loader, className, jar.toString());
    }

    static ProgramFactory fromSource(Path file) {
        String source;
        try {
            if (!Files.isRegularFile(file)) {
                throw new UserError("program source " + file + ": no such file");
            }
            source = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("program source " + file + ": " + e.getMessage(), e);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new UserError("program source " + file + ": compiling needs a JDK (this Java runtime has no compiler); "
                    + "run rmtemu with a JDK, or compile the program into a jar and pass JAR!CLASS");
        }
        String fileName = file.getFileName().toString();
        String simpleName = fileName.substring(0, fileName.length() - ".java".length());
        String pkg = packageOf(source);
        String className = pkg.isEmpty() ? simpleName : pkg + "." + simpleName;
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Map<String, byte[]> classes = new TreeMap<>();
        StandardJavaFileManager standard = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8);
        try (InMemoryClasses fm = new InMemoryClasses(standard, classes)) {
            JavaFileObject unit = new SimpleJavaFileObject(file.toUri(), JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return source;
                }
            };
            List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-proc:none",
                    "-Xlint:none", "--release", "17");
            boolean ok = javac.getTask(new StringWriter(), fm, diagnostics, options, null, List.of(unit)).call();
            if (!ok) {
                throw new UserError(errors(file, diagnostics));
            }
        } catch (IOException e) {
            throw new UserError("program source " + file + ": " + e.getMessage(), e);
        }
        ClassLoader loader = new ClassLoader(UserPrograms.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] b = classes.get(name);
                if (b == null) {
                    throw new ClassNotFoundException(name);
                }
                return defineClass(name, b, 0, b.length);
            }
        };
        return instantiate(loader, className, file.toString());
    }

    /** One line per compile error, {@code FILE:LINE: message}. */
    private static String errors(Path file, DiagnosticCollector<JavaFileObject> diagnostics) {
        List<String> lines = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                String msg = d.getMessage(Locale.ROOT).lines().findFirst().orElse("");
                lines.add(file + ":" + d.getLineNumber() + ": " + msg);
            }
        }
        int more = lines.size() - MAX_ERRORS_SHOWN;
        List<String> shown = lines.subList(0, Math.min(lines.size(), MAX_ERRORS_SHOWN));
        return "program source " + file + " does not compile:\n  " + String.join("\n  ", shown)
                + (more > 0 ? "\n  and " + more + " more" : "");
    }

    private static String packageOf(String source) {
        Matcher m = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;").matcher(source);
        return m.find() ? m.group(1) : "";
    }

    private static ProgramFactory instantiate(ClassLoader loader, String className, String where) {
        Class<?> k;
        try {
            k = Class.forName(className, true, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new UserError("program " + where + ": class " + className + " not found (" + e.getMessage() + ")", e);
        }
        if (!ProgramFactory.class.isAssignableFrom(k)) {
            throw new UserError("program " + where + ": class " + className + " does not implement "
                    + ProgramFactory.class.getName());
        }
        try {
            return (ProgramFactory) k.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new UserError("program " + where + ": class " + className + " needs a public no-argument constructor", e);
        } catch (RuntimeException e) {
            throw new UserError("program " + where + ": constructing " + className + " failed: " + e, e);
        }
    }

    /** Keeps the compiled classes in memory. */
    private static final class InMemoryClasses extends ForwardingJavaFileManager<StandardJavaFileManager> {
        private final Map<String, byte[]> classes;

        InMemoryClasses(StandardJavaFileManager m, Map<String, byte[]> classes) {
            super(m);
            this.classes = classes;
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                                                   FileObject sibling) {
            return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
                @Override
                public OutputStream openOutputStream() {
                    return new ByteArrayOutputStream() {
                        @Override
                        public void close() {
                            classes.put(className, toByteArray());
                        }
                    };
                }
            };
        }
    }
}

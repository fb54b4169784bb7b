package dev.rmtemu.model.p4.preprocess;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.p4.source.Diagnostics;
import dev.rmtemu.model.p4.source.SourceFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The C preprocessor as P4 uses it: #include "…" and &lt;…&gt;, #define (object-like and
 * function-like, # and ##, variadic), #undef, #if/#ifdef/#ifndef/#elif/#else/#endif with
 * defined(), #error, #line, #pragma (passed on), -D, and {@code __TARGET_TOFINO__}. It keeps
 * going after an error so that every error is reported; each names the user's FILE:LINE:COL.
 */
public final class Preprocessor {
    /** Deepest #include nesting (as GCC's limit); deeper is a cycle the guards did not stop. */
    public static final int MAX_INCLUDE_DEPTH = 200;
    /** Largest output, in characters (a program is kilobytes; this stops runaway expansion). */
    public static final int MAX_OUTPUT_CHARS = 64 << 20;

    private final PreprocessorOptions options;
    private final IncludeResolver resolver;
    private final SourceFiles files = new SourceFiles();
    private final Diagnostics diagnostics = new Diagnostics();
    private final Map<String, Macro> macros = new HashMap<>();
    private final MacroExpander expander;
    private final List<PreprocessedSource.Pragma> pragmas = new ArrayList<>();
    private final Set<String> onceFiles = new HashSet<>();
    private final Deque<String> includeStack = new ArrayDeque<>();
    private final Deque<String> includeNames = new ArrayDeque<>();
    private final StringBuilder out = new StringBuilder();
    private long[] origins = new long[4096];
    private boolean outputFull;

    /** State of the file being read (its #line mapping and the line being expanded). */
    private int fileId;
    private int lineDelta;
    private long currentOrigin;

    private Preprocessor(PreprocessorOptions options) {
        this.options = options;
        this.resolver = new IncludeResolver(options.includeDirs());
        this.expander = new MacroExpander(macros, this::builtinMacro, (origin, msg) -> error(origin, msg));
    }

    /** Preprocesses a program file; a file that cannot be read is a one-line UserError. */
    public static PreprocessedSource file(Path path, PreprocessorOptions options) {
        if (!Files.isRegularFile(path)) {
            throw new UserError(Files.exists(path) ? path + ": not a regular file" : "P4 program not found: " + path);
        }
        String text;
        try {
            text = IncludeResolver.decode(Files.readAllBytes(path), path.toString());
        } catch (IOException e) {
            throw new UserError("cannot read " + path + ": " + e.getMessage(), e);
        } catch (IncludeResolver.Unreadable e) {
            throw new UserError(e.getMessage());
        }
        String identity;
        try {
            identity = path.toRealPath().toString();
        } catch (IOException e) {
            identity = path.toAbsolutePath().toString();
        }
        Path dir = path.toAbsolutePath().getParent();
        return new Preprocessor(options).run(new SourceFile(path.toString(), identity, text, dir, false));
    }

    /**
     * Preprocesses text that is not in a file (tests, fuzzing), named {@code displayName};
     * its {@code #include "…"} looks in {@code directory} first when not null.
     */
    public static PreprocessedSource text(String displayName, String text, Path directory, PreprocessorOptions options) {
        return new Preprocessor(options).run(new SourceFile(displayName, "text:" + displayName, text, directory, false));
    }

    private PreprocessedSource run(SourceFile main) {
        int mainId = files.id(main.displayName());
        predefine(mainId);
        process(main, SourceFiles.pack(mainId, 1, 1));
        long end = endOf(mainId);
        return new PreprocessedSource(out.toString(), Arrays.copyOf(origins, out.length()), files, pragmas, diagnostics, end);
    }

    /** Just past the last character the main file gave the output: where "the end of the program" is reported. */
    private long endOf(int mainId) {
        for (int i = out.length() - 1; i >= 0; i--) {
            if (SourceFiles.fileOf(origins[i]) == mainId && !Character.isWhitespace(out.charAt(i))) {
                return SourceFiles.plusColumns(origins[i], 1);
            }
        }
        return SourceFiles.pack(mainId, 1, 1);
    }

    private void predefine(int mainId) {
        int commandLine = files.id("<command line>");
        long at = SourceFiles.pack(commandLine, 1, 1);
        define("__TARGET_TOFINO__ " + options.targetTofino(), at);
        for (String d : options.defines()) {
            int eq = d.indexOf('=');
            define(eq < 0 ? d + " 1" : d.substring(0, eq) + " " + d.substring(eq + 1), at);
        }
        fileId = mainId;
    }

    private void define(String definition, long at) {
        List<PpToken> tokens = PpLexer.tokens(definition, at);
        defineFrom(tokens, 0, at);
    }

    // ------------------------------------------------------------------ files and lines

    private void process(SourceFile file, long includedAt) {
        if (includeStack.size() >= MAX_INCLUDE_DEPTH) {
            error(includedAt, "#include nested deeper than " + MAX_INCLUDE_DEPTH + " (" + file.displayName() + ")");
            return;
        }
        int savedFile = fileId;
        int savedDelta = lineDelta;
        fileId = files.id(file.displayName());
        lineDelta = 0;
        includeStack.push(file.identity());
        includeNames.push(file.displayName());
        LineReader reader = LineReader.read(file.text());
        List<LogicalLine> lines = reader.lines();
        ConditionalStack conditions = new ConditionalStack();
        int[] index = {0};
        while (index[0] < lines.size() && !outputFull) {
            LogicalLine line = lines.get(index[0]++);
            List<PpToken> tokens = PpLexer.tokens(line, fileId, lineDelta);
            if (!tokens.isEmpty() && tokens.get(0).is("#")) {
                directive(file, line, tokens, conditions);
            } else if (conditions.active()) {
                List<PpToken> expanded = expander.expand(tokens, () -> nextTextLine(lines, index, conditions));
                emit(expanded);
            }
            newline();
        }
        if (reader.unterminatedCommentLine() > 0) {
            error(SourceFiles.pack(fileId, reader.unterminatedCommentLine() + lineDelta, reader.unterminatedCommentColumn()),
                    "unterminated /* comment");
        }
        conditions.unterminated(this::error);
        includeStack.pop();
        includeNames.pop();
        fileId = savedFile;
        lineDelta = savedDelta;
    }

    /** The next line's tokens, for macro arguments that span lines; null at a directive or the end. */
    private List<PpToken> nextTextLine(List<LogicalLine> lines, int[] index, ConditionalStack conditions) {
        if (index[0] >= lines.size() || !conditions.active()) {
            return null;
        }
        List<PpToken> tokens = PpLexer.tokens(lines.get(index[0]), fileId, lineDelta);
        if (!tokens.isEmpty() && tokens.get(0).is("#")) {
            return null;
        }
        index[0]++;
        return tokens;
    }

    private void emit(List<PpToken> tokens) {
        for (int i = 0; i < tokens.size(); i++) {
            PpToken t = tokens.get(i);
            if (i > 0 && t.spaceBefore()) {
                put(' ', t.origin());
            }
            for (int k = 0; k < t.text().length(); k++) {
                put(t.text().charAt(k), t.fromSource() ? SourceFiles.plusColumns(t.origin(), k) : t.origin());
            }
        }
    }

    private void newline() {
        put('\n', currentOrigin);
    }

    private void put(char c, long origin) {
        if (outputFull) {
            return;
        }
        if (out.length() >= MAX_OUTPUT_CHARS) {
            outputFull = true;
            error(origin, "preprocessed program exceeds " + MAX_OUTPUT_CHARS + " characters");
            return;
        }
        int k = out.length();
        if (k == origins.length) {
            origins = Arrays.copyOf(origins, k * 2);
        }
        origins[k] = origin;
        currentOrigin = origin;
        out.append(c);
    }

    // ------------------------------------------------------------------ directives

    private void directive(SourceFile file, LogicalLine line, List<PpToken> tokens, ConditionalStack conditions) {
        PpToken hash = tokens.get(0);
        currentOrigin = hash.origin();
        if (tokens.size() == 1) {
            return;
        }
        PpToken name = tokens.get(1);
        String d = name.text();
        switch (d) {
            case "if" -> conditions.pushIf(hash.origin(), "#if", conditions.active() && condition(tokens, 2, hash));
            case "ifdef", "ifndef" -> {
                boolean value = false;
                if (conditions.active()) {
                    PpToken macro = macroName(tokens, 2, hash, "#" + d);
                    value = macro != null && (macros.containsKey(macro.text()) == d.equals("ifdef"));
                }
                conditions.pushIf(hash.origin(), "#" + d, value);
            }
            case "elif" -> {
                if (!conditions.open()) {
                    error(hash.origin(), "#elif without #if");
                } else {
                    conditions.elif(hash.origin(), this::error, () -> condition(tokens, 2, hash));
                }
            }
            case "else" -> {
                if (!conditions.open()) {
                    error(hash.origin(), "#else without #if");
                } else {
                    conditions.otherwise(hash.origin(), this::error);
                }
            }
            case "endif" -> {
                if (!conditions.open()) {
                    error(hash.origin(), "#endif without #if");
                } else {
                    conditions.pop();
                }
            }
            default -> {
                if (conditions.active()) {
                    activeDirective(file, line, tokens, name, d);
                }
            }
        }
    }

    private void activeDirective(SourceFile file, LogicalLine line, List<PpToken> tokens, PpToken name, String d) {
        PpToken hash = tokens.get(0);
        switch (d) {
            case "define" -> {
                if (tokens.size() < 3) {
                    error(hash.origin(), "#define without a macro name");
                } else {
                    defineFrom(tokens, 2, hash.origin());
                }
            }
            case "undef" -> {
                PpToken macro = macroName(tokens, 2, hash, "#undef");
                if (macro != null) {
                    macros.remove(macro.text());
                }
            }
            case "include" -> include(file, line, tokens, hash);
            case "error" -> error(hash.origin(), "#error" + restOfLine(tokens));
            case "warning" -> {
                // a warning does not make the program malformed; rmtemu reports errors only
            }
            case "line" -> lineDirective(tokens, hash, line);
            case "pragma" -> {
                String text = restOfLine(tokens).strip();
                if (text.equals("once")) {
                    onceFiles.add(file.identity());
                } else {
                    pragmas.add(new PreprocessedSource.Pragma(files.position(hash.origin()), text));
                }
            }
            default -> {
                if (name.kind() == PpToken.Kind.NUMBER) {
                    lineDirective(prepend(tokens), hash, line);
                } else {
                    error(name.origin(), "unknown preprocessor directive '#" + d + "'");
                }
            }
        }
    }

    /** GCC's "# 12 "file"" is #line 12 "file". */
    private static List<PpToken> prepend(List<PpToken> tokens) {
        List<PpToken> l = new ArrayList<>(tokens.size() + 1);
        l.add(tokens.get(0));
        l.add(tokens.get(0));
        l.addAll(tokens.subList(1, tokens.size()));
        return l;
    }

    /** The tokens after the directive's name, spaced as written (runs of blanks as one). */
    private static String restOfLine(List<PpToken> tokens) {
        StringBuilder sb = new StringBuilder();
        for (int i = 2; i < tokens.size(); i++) {
            sb.append(i == 2 || tokens.get(i).spaceBefore() ? " " : "").append(tokens.get(i).text());
        }
        return sb.toString();
    }

    private PpToken macroName(List<PpToken> tokens, int i, PpToken hash, String directive) {
        if (i >= tokens.size() || tokens.get(i).kind() != PpToken.Kind.IDENTIFIER) {
            error(i < tokens.size() ? tokens.get(i).origin() : hash.origin(), directive + " needs a macro name");
            return null;
        }
        if (i + 1 < tokens.size()) {
            error(tokens.get(i + 1).origin(), "extra tokens after " + directive + " " + tokens.get(i).text());
        }
        return tokens.get(i);
    }

    private void defineFrom(List<PpToken> tokens, int i, long at) {
        PpToken name = tokens.get(i);
        if (name.kind() != PpToken.Kind.IDENTIFIER) {
            error(name.origin(), "macro name must be an identifier, not '" + name.text() + "'");
            return;
        }
        if (name.text().equals("defined")) {
            error(name.origin(), "'defined' cannot be a macro name");
            return;
        }
        int k = i + 1;
        List<String> params = null;
        boolean variadic = false;
        if (k < tokens.size() && tokens.get(k).is("(") && !tokens.get(k).spaceBefore()) {
            params = new ArrayList<>();
            k++;
            boolean closed = false;
            while (k < tokens.size()) {
                PpToken t = tokens.get(k++);
                if (t.is(")") && (params.isEmpty() || variadic)) {
                    closed = true;
                    break;
                }
                if (t.is("...")) {
                    params.add("__VA_ARGS__");
                    variadic = true;
                } else if (t.kind() == PpToken.Kind.IDENTIFIER && !variadic) {
                    if (params.contains(t.text())) {
                        error(t.origin(), "duplicate macro parameter '" + t.text() + "'");
                        return;
                    }
                    params.add(t.text());
                } else {
                    error(t.origin(), "expected a parameter name in #define " + name.text() + ", found '" + t.text() + "'");
                    return;
                }
                if (k < tokens.size() && tokens.get(k).is(",") && !variadic) {
                    k++;
                    continue;
                }
                if (k < tokens.size() && tokens.get(k).is(")")) {
                    k++;
                    closed = true;
                    break;
                }
                error(k < tokens.size() ? tokens.get(k).origin() : t.origin(), "expected ',' or ')' in the parameters of #define " + name.text());
                return;
            }
            if (!closed) {
                error(name.origin(), "missing ')' in the parameters of #define " + name.text());
                return;
            }
        }
        List<PpToken> body = new ArrayList<>(tokens.subList(k, tokens.size()));
        if (!body.isEmpty()) {
            body.set(0, body.get(0).withSpace(false));
            if (body.get(0).is("##") || body.get(body.size() - 1).is("##")) {
                error(body.get(0).is("##") ? body.get(0).origin() : body.get(body.size() - 1).origin(),
                        "'##' cannot begin or end the body of #define " + name.text());
                return;
            }
        }
        if (params != null) {
            for (int b = 0; b < body.size(); b++) {
                if (body.get(b).is("#") && (b + 1 >= body.size() || !params.contains(body.get(b + 1).text()))) {
                    error(body.get(b).origin(), "'#' in #define " + name.text() + " must be followed by a parameter name");
                    return;
                }
            }
        }
        macros.put(name.text(), new Macro(name.text(), params == null ? null : List.copyOf(params), variadic, List.copyOf(body), at));
    }

    private boolean condition(List<PpToken> tokens, int from, PpToken hash) {
        List<PpToken> resolved = new ArrayList<>();
        for (int i = from; i < tokens.size(); i++) {
            PpToken t = tokens.get(i);
            if (t.kind() == PpToken.Kind.IDENTIFIER && t.text().equals("defined")) {
                int k = i + 1;
                boolean paren = k < tokens.size() && tokens.get(k).is("(");
                if (paren) {
                    k++;
                }
                if (k >= tokens.size() || tokens.get(k).kind() != PpToken.Kind.IDENTIFIER
                        || (paren && (k + 1 >= tokens.size() || !tokens.get(k + 1).is(")")))) {
                    error(t.origin(), "'defined' needs a macro name: defined NAME or defined(NAME)");
                    return false;
                }
                boolean isDefined = macros.containsKey(tokens.get(k).text()) || isBuiltinName(tokens.get(k).text());
                resolved.add(new PpToken(PpToken.Kind.NUMBER, isDefined ? "1" : "0", t.origin(), false, t.spaceBefore(), Set.of()));
                i = paren ? k + 1 : k;
                continue;
            }
            resolved.add(t);
        }
        List<PpToken> expanded = expander.expand(resolved, null);
        try {
            return ConditionEvaluator.evaluate(expanded) != 0;
        } catch (ConditionEvaluator.Malformed e) {
            error(hash.origin(), e.getMessage());
            return false;
        }
    }

    private void include(SourceFile file, LogicalLine line, List<PpToken> tokens, PpToken hash) {
        List<PpToken> operand = tokens.subList(2, tokens.size());
        if (!operand.isEmpty() && !operand.get(0).is("<") && operand.get(0).kind() != PpToken.Kind.STRING) {
            operand = expander.expand(operand, null);
        }
        String name;
        boolean quoted;
        if (!operand.isEmpty() && operand.get(0).kind() == PpToken.Kind.STRING && operand.size() == 1
                && operand.get(0).text().length() >= 2 && operand.get(0).text().endsWith("\"")) {
            String s = operand.get(0).text();
            name = s.substring(1, s.length() - 1);
            quoted = true;
        } else if (!operand.isEmpty() && operand.get(0).is("<") && operand.get(operand.size() - 1).is(">") && operand.size() > 2) {
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i < operand.size() - 1; i++) {
                if (i > 1 && operand.get(i).spaceBefore()) {
                    sb.append(' ');
                }
                sb.append(operand.get(i).text());
            }
            name = sb.toString();
            quoted = false;
        } else {
            error(hash.origin(), "#include expects \"FILE\" or <FILE>");
            return;
        }
        SourceFile found;
        try {
            found = resolver.find(name, quoted, file);
        } catch (IncludeResolver.Unreadable e) {
            error(hash.origin(), e.getMessage());
            return;
        }
        String shown = quoted ? "\"" + name + "\"" : "<" + name + ">";
        if (found == null) {
            error(hash.origin(), "cannot find include file " + shown + " (searched: " + resolver.searched(quoted, file) + ")");
            return;
        }
        if (onceFiles.contains(found.identity())) {
            return;
        }
        if (includeStack.contains(found.identity())) {
            if (guardedAndDefined(found)) {
                return;
            }
            List<String> chain = new ArrayList<>(includeNames);
            Collections.reverse(chain);
            int from = chain.indexOf(found.displayName());
            List<String> cycle = new ArrayList<>(chain.subList(Math.max(0, from), chain.size()));
            cycle.add(found.displayName());
            error(hash.origin(), "#include cycle: " + String.join(" includes ", cycle) + " (no include guard stops it)");
            return;
        }
        process(found, hash.origin());
    }

    /** Is the file's text wrapped in "#ifndef G / #define G ... #endif" with G defined now? */
    private boolean guardedAndDefined(SourceFile f) {
        for (LogicalLine l : LineReader.read(f.text()).lines()) {
            List<PpToken> t = PpLexer.tokens(l, 0, 0);
            if (t.isEmpty()) {
                continue;
            }
            if (t.size() >= 3 && t.get(0).is("#") && t.get(1).text().equals("ifndef")) {
                return macros.containsKey(t.get(2).text());
            }
            if (t.size() >= 3 && t.get(0).is("#") && t.get(1).text().equals("if") && t.get(2).text().equals("!")) {
                for (PpToken k : t) {
                    if (k.kind() == PpToken.Kind.IDENTIFIER && !k.text().equals("defined") && !k.text().equals("if")) {
                        return macros.containsKey(k.text());
                    }
                }
            }
            return false;
        }
        return true;
    }

    private void lineDirective(List<PpToken> tokens, PpToken hash, LogicalLine line) {
        List<PpToken> operand = expander.expand(tokens.subList(2, tokens.size()), null);
        if (operand.isEmpty() || operand.get(0).kind() != PpToken.Kind.NUMBER || !operand.get(0).text().matches("[0-9]+")) {
            error(hash.origin(), "#line expects a line number");
            return;
        }
        long n;
        try {
            n = Long.parseLong(operand.get(0).text());
        } catch (NumberFormatException e) {
            n = Long.MAX_VALUE;
        }
        if (n < 1 || n > (1 << 24) - 1) {
            error(operand.get(0).origin(), "#line number out of range: " + operand.get(0).text());
            return;
        }
        if (operand.size() >= 2) {
            String s = operand.get(1).text();
            if (operand.size() > 2 || operand.get(1).kind() != PpToken.Kind.STRING || s.length() < 3 || !s.endsWith("\"")) {
                error(operand.get(1).origin(), "#line expects a line number and optionally a non-empty \"FILE\"");
                return;
            }
            fileId = files.id(s.substring(1, s.length() - 1));
        }
        int physicalNext = line.lines()[line.lines().length - 1] + 1;
        lineDelta = (int) n - physicalNext;
    }

    // ------------------------------------------------------------------ helpers

    private static boolean isBuiltinName(String name) {
        return name.equals("__FILE__") || name.equals("__LINE__");
    }

    private PpToken builtinMacro(PpToken use) {
        if (macros.containsKey(use.text())) {
            return null;
        }
        return switch (use.text()) {
            case "__LINE__" -> new PpToken(PpToken.Kind.NUMBER, Integer.toString(SourceFiles.lineOf(use.origin())), use.origin(), false,
                    use.spaceBefore(), Set.of());
            case "__FILE__" -> MacroExpander.stringize(
                    List.of(new PpToken(PpToken.Kind.IDENTIFIER, files.name(SourceFiles.fileOf(use.origin())), use.origin(), false, false, Set.of())),
                    use.origin()).withSpace(use.spaceBefore());
            default -> null;
        };
    }

    private void error(long origin, String message) {
        diagnostics.error(files.position(origin), message);
    }
}

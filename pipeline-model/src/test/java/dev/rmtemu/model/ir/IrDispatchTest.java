package dev.rmtemu.model.ir;

import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterType;
import dev.rmtemu.model.phv.Gress;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The IR is dispatched only through {@link Expr.Visitor} and {@link Stmt.Visitor}, whose
 * methods every pass and back end implements, so a new kind of value or statement does not
 * compile until each of them handles it. An {@code instanceof} test or a cast on a node kind
 * would let a new kind fall through silently: none may come back into the model's sources.
 */
class IrDispatchTest {
    private static final Path MAIN = Path.of("src", "main", "java");
    private static final Pattern KIND_TEST = Pattern.compile(
            "instanceof\\s+(Expr|Stmt)\\.|\\((Expr|Stmt)\\.(Read|Const|HashOut|RegOut|ActionData|Binary|MeterOut|Assign|Execute|If|Apply|Count|ExecuteMeter)\\)");

    @Test
    void noPassTestsOrCastsANodeKind() throws IOException {
        assertTrue(Files.isDirectory(MAIN), "run from the pipeline-model module: " + MAIN.toAbsolutePath());
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    if (KIND_TEST.matcher(lines.get(i)).find()) {
                        found.add(MAIN.relativize(f) + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertEquals(List.of(), found);
    }

    @Test
    void everyKindAnswersItsOwnVisitorMethod() {
        Expr.Visitor<String> names = new Expr.Visitor<>() {
            @Override
            public String read(Expr.Read e) {
                return "read";
            }

            @Override
            public String constant(Expr.Const e) {
                return "constant";
            }

            @Override
            public String hashOut(Expr.HashOut e) {
                return "hashOut";
            }

            @Override
            public String regOut(Expr.RegOut e) {
                return "regOut";
            }

            @Override
            public String actionData(Expr.ActionData e) {
                return "actionData";
            }

            @Override
            public String binary(Expr.Binary e) {
                return "binary";
            }

            @Override
            public String meterOut(Expr.MeterOut e) {
                return "meterOut";
            }
        };
        assertEquals("constant", Ir.constant(7).accept(names));
        assertEquals("binary", Ir.add(Ir.constant(1), Ir.constant(2)).accept(names));
        Meter m = new Meter(0, "m", MeterType.BYTES, Meter.Algorithm.TRTCM, 4, Gress.INGRESS, 0, null);
        assertEquals("meterOut", Ir.color(m).accept(names));
        assertEquals(null, Ir.color(m).constantValue());
        assertEquals(7L, Ir.constant(7).constantValue());
        assertEquals(null, Ir.add(Ir.constant(1), Ir.constant(2)).constantValue());
    }
}

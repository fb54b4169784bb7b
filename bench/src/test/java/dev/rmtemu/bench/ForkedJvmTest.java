package dev.rmtemu.bench;

import org.junit.jupiter.api.Test;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The benchmarks' fork flags are written once (ForkedJvm) and are the parent pom's rmtemu.jvm.flags. */
class ForkedJvmTest {
    private static final Pattern FLAGS = Pattern.compile("<rmtemu\\.jvm\\.flags>([^<]*)</rmtemu\\.jvm\\.flags>");

    @Test
    void theForkFlagsAreThePomsFlags() throws Exception {
        Optional<Path> root = RepositoryHygieneTest.reactorRoot(Path.of(""));
        assumeTrue(root.isPresent(), "not run inside the rmtemu reactor");
        Matcher m = FLAGS.matcher(Files.readString(root.get().resolve("pom.xml")));
        assertTrue(m.find(), "the parent pom defines rmtemu.jvm.flags");
        Fork fork = ForkedJvm.class.getAnnotation(Fork.class);
        assertEquals(1, fork.value());
        assertEquals(List.of(m.group(1).trim().split("\\s+")), List.of(fork.jvmArgsAppend()));
    }

    @Test
    void everyBenchmarkTakesTheForkFromForkedJvm() {
        JavaClasses bench = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.rmtemu.bench");
        List<Class<?>> benchmarks = new ArrayList<>();
        for (JavaClass c : bench) {
            if (!c.getPackageName().contains("jmh_generated")
                    && c.getMethods().stream().anyMatch(mt -> mt.isAnnotatedWith(Benchmark.class))) {
                benchmarks.add(c.reflect());
            }
        }
        assertTrue(benchmarks.size() >= 10, "benchmarks found: " + benchmarks);
        for (Class<?> c : benchmarks) {
            assertNull(c.getDeclaredAnnotation(Fork.class), c.getSimpleName() + " declares its own @Fork");
            assertSame(ForkedJvm.class.getAnnotation(Fork.class), c.getAnnotation(Fork.class), c.getSimpleName());
        }
    }
}

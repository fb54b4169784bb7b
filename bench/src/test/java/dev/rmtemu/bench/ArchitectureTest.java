package dev.rmtemu.bench;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layout of DESIGN.md ("Modules"), held on the main classes of every module (bench sees
 * them all): no cycle between any two packages; the modules depend one way, model &lt;- traces
 * &lt;- emulator &lt;- programs &lt;- bench; and inside the emulator the machine &lt;- spi &lt;- run &lt;-
 * output &lt;- cli (a lower room never names a higher one).
 */
class ArchitectureTest {
    private static final String ROOT = "dev.rmtemu";
    private static final String EMU = ROOT + ".emulator";

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        // the modules are on bench's test class path as target/classes or, in a reactor 'verify', as their jars
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
        for (String module : new String[] {ROOT + ".model.", ROOT + ".traces.", EMU + ".", ROOT + ".programs.", ROOT + ".bench."}) {
            long n = main.stream().filter(c -> c.getName().startsWith(module)).count();
            assertTrue(n > 10, "only " + n + " classes of " + module + "* imported");
        }
    }

    @Test
    void noCycleBetweenPackages() {
        // one slice per package: dev.rmtemu.emulator.run and dev.rmtemu.emulator.output are two slices
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(main);
    }

    @Test
    void modulesDependOneWay() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("model").definedBy(ROOT + ".model..")
                .layer("traces").definedBy(ROOT + ".traces..")
                .layer("emulator").definedBy(EMU + "..")
                .layer("programs").definedBy(ROOT + ".programs..")
                .layer("bench").definedBy(ROOT + ".bench..")
                .whereLayer("bench").mayNotBeAccessedByAnyLayer()
                .whereLayer("programs").mayOnlyBeAccessedByLayers("bench")
                .whereLayer("emulator").mayOnlyBeAccessedByLayers("programs", "bench")
                .whereLayer("traces").mayOnlyBeAccessedByLayers("emulator", "programs", "bench")
                .check(main);
    }

    @Test
    void emulatorRoomsDependOneWay() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("machine").definedBy(EMU + ".engine..", EMU + ".tm..", EMU + ".ring..", EMU + ".network..",
                        EMU + ".topology..", EMU + ".journal..", EMU + ".metrics..", EMU + ".json..", EMU + ".host..",
                        EMU + ".rundir..", EMU + ".capture..")
                .layer("spi").definedBy(EMU + ".spi..")
                .layer("run").definedBy(EMU + ".run..")
                .layer("output").definedBy(EMU + ".output..")
                .layer("cli").definedBy(EMU + ".cli..")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("output").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("run").mayOnlyBeAccessedByLayers("output", "cli")
                .whereLayer("spi").mayOnlyBeAccessedByLayers("run", "output", "cli")
                .whereLayer("machine").mayOnlyBeAccessedByLayers("spi", "run", "output", "cli")
                .check(main);
    }
}

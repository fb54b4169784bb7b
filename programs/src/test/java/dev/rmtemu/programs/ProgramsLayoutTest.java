package dev.rmtemu.programs;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rooms of every {@code programs/<algo>/}: {@code program/} (what runs on the switch) uses
 * no other room; nothing but {@code experiment/} and the algorithm's plug-in uses
 * {@code experiment/}; the rooms, and the algorithms, have no dependency cycle.
 */
class ProgramsLayoutTest {
    private static final String[] ALGORITHMS = {"hashpipe", "lds", "lossradar", "midst", "wbmon"};
    private static JavaClasses classes;

    @BeforeAll
    static void importMain() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.rmtemu.programs");
    }

    @Test
    void everyAlgorithmHasItsFourRooms() {
        for (String a : ALGORITHMS) {
            for (String room : new String[] {"program", "control", "reference", "experiment"}) {
                String pkg = "dev.rmtemu.programs." + a + "." + room;
                assertTrue(classes.stream().anyMatch(c -> c.getPackageName().equals(pkg)), pkg);
            }
        }
    }

    @Test
    void theProgramUsesNoOtherRoom() {
        noClasses().that().resideInAPackage("dev.rmtemu.programs.*.program..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.rmtemu.programs.*.control..",
                        "dev.rmtemu.programs.*.reference..", "dev.rmtemu.programs.*.experiment..")
                .check(classes);
    }

    @Test
    void onlyExperimentsAndPluginsUseExperiments() {
        noClasses().that().resideInAnyPackage("dev.rmtemu.programs.*.program..", "dev.rmtemu.programs.*.control..",
                        "dev.rmtemu.programs.*.reference..", "dev.rmtemu.programs.common..")
                .should().dependOnClassesThat().resideInAPackage("dev.rmtemu.programs.*.experiment..")
                .check(classes);
    }

    @Test
    void noCycleBetweenRoomsOrAlgorithms() {
        slices().matching("dev.rmtemu.programs.(*).(*)..").should().beFreeOfCycles().check(classes);
        slices().matching("dev.rmtemu.programs.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void theRulesCatchAViolation() {
        // the plug-in joins every room, so "the program's room" rule read over it must fail
        EvaluationResult r = noClasses().that().resideInAPackage("dev.rmtemu.programs.midst")
                .should().dependOnClassesThat().resideInAPackage("dev.rmtemu.programs.midst.experiment..")
                .evaluate(classes);
        assertTrue(r.hasViolation());
        assertFalse(classes.stream().noneMatch(c -> c.getSimpleName().equals("MidstPlugin")));
        assertEquals("dev.rmtemu.programs.midst", classes.get("dev.rmtemu.programs.midst.MidstPlugin").getPackageName());
    }
}

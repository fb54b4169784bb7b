package dev.rmtemu.model;

import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.model.runtime.PassExecutor;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.target.TargetProfiles;

import java.util.Map;

/** Shared helpers for model tests. */
final class TestPrograms {
    private TestPrograms() {
    }

    static ResourceReport check(String program, String target, Map<String, String> params) {
        StageProgram p = new ProgramRegistry().build(program, params);
        return ResourceChecker.check(p, TargetProfiles.builtIn(target));
    }

    /**
     * A program with its state, executor and a PHV, ready to run passes. It runs
     * the IR interpreter through the checked stage context without the compiler
     * first: these tests reach the per-packet rules (the run-time belt behind
     * the compiler's proofs).
     */
    record Rig(StageProgram program, PipelineState state, PassExecutor executor, Phv phv) {
        static Rig of(StageProgram p, int pipes, boolean enforce) {
            PipelineState s = new PipelineState(p, pipes);
            return new Rig(p, s, new PassExecutor(s, enforce, Backend.INTERPRETER), new Phv(p.fields().size()));
        }
    }
}

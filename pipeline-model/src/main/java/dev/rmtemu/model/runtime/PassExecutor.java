package dev.rmtemu.model.runtime;

import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.ir.IrInterpreter;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.table.HitClock;
import dev.rmtemu.model.table.TableState;

import java.util.List;

/**
 * Runs packet passes through one gress of a switch's pipeline: on the compiled
 * backend the gress's generated class; on the interpreter each stage's IR in
 * order through the checked context, committing the stage's PHV writes before
 * the next stage (VLIW semantics). Single-threaded; no allocation per pass.
 */
public final class PassExecutor {
    private final StageContext ctx;
    private final IrInterpreter[][] actions;
    private final int[][] numbers;
    /** Generated code per gress, or null on the interpreter backend. */
    private final GressCode[] codes;
    private final PipelineState state;
    private final HitClock hitClock;
    private final TableState[] tables;
    private long pass;

    /** @param enforce check the hardware rules (off only to measure their cost) */
    public PassExecutor(PipelineState state, boolean enforce) {
        this(state, enforce, Backend.COMPILED);
    }

    public PassExecutor(PipelineState state, boolean enforce, Backend backend) {
        this.ctx = new StageContext(state, enforce);
        this.state = state;
        this.tables = state.tableStates();
        this.hitClock = state.hitClock();
        this.codes = new GressCode[Gress.values().length];
        if (backend == Backend.COMPILED) {
            for (Gress g : Gress.values()) {
                codes[g.ordinal()] = GressCompiler.of(state.program(), g);
            }
        }
        Gress[] gs = Gress.values();
        actions = new IrInterpreter[gs.length][];
        numbers = new int[gs.length][];
        for (Gress g : gs) {
            List<StageDecl> decls = state.program().stages(g);
            actions[g.ordinal()] = new IrInterpreter[decls.size()];
            numbers[g.ordinal()] = new int[decls.size()];
            for (int i = 0; i < decls.size(); i++) {
                actions[g.ordinal()][i] = decls.get(i).interpreter();
                numbers[g.ordinal()][i] = decls.get(i).number();
            }
        }
    }

    /** Runs one pass of packet {@code packetNumber} through {@code gress} of {@code pipe}. */
    public void run(Phv phv, int pipe, Gress gress, long packetNumber) {
        // a hit on a table with an idle timeout is stamped with the pass's time
        hitClock.nowNs(phv.nowNs());
        GressCode code = codes[gress.ordinal()];
        if (code != null) {
            RegisterFile f = state.registers(pipe, gress);
            code.run(phv.values(), phv, f.lo, f.hi, tables, state.externs(pipe, gress), packetNumber);
            return;
        }
        ctx.beginPass(phv, pipe, gress, packetNumber, ++pass);
        IrInterpreter[] as = actions[gress.ordinal()];
        int[] ns = numbers[gress.ordinal()];
        for (int i = 0; i < as.length; i++) {
            ctx.enterStage(ns[i]);
            as[i].apply(ctx);
            phv.commitStage();
        }
    }
}

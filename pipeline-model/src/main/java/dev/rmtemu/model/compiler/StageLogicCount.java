package dev.rmtemu.model.compiler;

import dev.rmtemu.model.check.StageLogic;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.target.TargetProfile;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an IR stage needs of the resources the declarations alone do not show:
 * gateways (one per condition), VLIW instructions (one per block of
 * instructions a gateway branch or a table action selects), action data bus
 * bytes (stateful-ALU and hash outputs that instructions copy into the PHV),
 * each stateful ALU's inputs (PHV words and hash bits) and the gateways' crossbar
 * fields and hash bits ({@link GatewayLayout}).
 */
final class StageLogicCount {
    private StageLogicCount() {
    }

    static List<StageLogic> of(StageProgram p, TargetProfile target) {
        List<StageLogic> out = new ArrayList<>();
        for (StageDecl d : IrStages.of(p)) {
            int[] gateways = {0};
            int[] instructions = {0};
            Set<Object> busSources = Collections.newSetFromMap(new IdentityHashMap<>());
            int[] busBytes = {0};
            Map<RegisterArray, Set<Object>> phv = new LinkedHashMap<>();
            Map<RegisterArray, Set<Object>> hashes = new LinkedHashMap<>();
            countBlock(d.body(), instructions);
            IrWalk.forEachStmt(d.body(), s -> {
                s.branches().forEach(b -> countBlock(b, instructions));
                s.accept(new Stmt.Visitor<Void>() {
                    @Override
                    public Void count(Stmt.Count x) {
                        return null;
                    }

                    @Override
                    public Void meter(Stmt.ExecuteMeter x) {
                        return null;
                    }

                    @Override
                    public Void assign(Stmt.Assign a) {
                        IrWalk.forEachExpr(a.value(), x -> {
                            RegisterAction r = IrWalk.registerOutput(x);
                            HashUnit h = IrWalk.hashOutput(x);
                            if (r != null && busSources.add(r)) {
                                busBytes[0] += bytes(r.array().wordBits());
                            } else if (h != null && busSources.add(h)) {
                                busBytes[0] += bytes(h.outputBits());
                            }
                        });
                        return null;
                    }

                    @Override
                    public Void execute(Stmt.Execute e) {
                        RegisterArray r = e.action().array();
                        Set<Object> fields = phv.computeIfAbsent(r, k -> Collections.newSetFromMap(new IdentityHashMap<>()));
                        Set<Object> units = hashes.computeIfAbsent(r, k -> Collections.newSetFromMap(new IdentityHashMap<>()));
                        for (Expr in : List.of(e.inLo(), e.inHi())) {
                            IrWalk.forEachExpr(in, x -> {
                                Field f = IrWalk.fieldRead(x);
                                HashUnit h = IrWalk.hashOutput(x);
                                if (f != null) {
                                    fields.add(f);
                                } else if (h != null) {
                                    units.add(h);
                                }
                            });
                        }
                        return null;
                    }

                    @Override
                    public Void gateway(Stmt.If i) {
                        gateways[0]++;
                        return null;
                    }

                    @Override
                    public Void apply(Stmt.Apply a) {
                        return null;
                    }
                });
            });
            List<StageLogic.AluInputs> alu = new ArrayList<>();
            phv.forEach((r, fields) -> {
                int hashBits = 0;
                for (Object u : hashes.get(r)) {
                    hashBits += ((HashUnit) u).outputBits();
                }
                alu.add(new StageLogic.AluInputs(r.name(), phvWords(fields), hashBits));
            });
            GatewayConditionsPass.GatewayInputs gw = GatewayConditionsPass.inputs(d, target);
            out.add(new StageLogic(d.gress(), d.number(), gateways[0], instructions[0], busBytes[0], alu, gw.fields(), gw.hashBits()));
        }
        return out;
    }

    /** A block that runs instructions is one instruction word of the stage. */
    private static void countBlock(List<Stmt> block, int[] instructions) {
        for (Stmt s : block) {
            if (IrWalk.assignment(s) != null) {
                instructions[0]++;
                return;
            }
        }
    }

    /** A field wider than 32 bits takes two of the stateful ALU's 32-bit input words. */
    private static int phvWords(Set<Object> fields) {
        int words = 0;
        for (Object f : fields) {
            words += ((Field) f).width() > 32 ? 2 : 1;
        }
        return words;
    }

    private static int bytes(int bits) {
        return (bits + 7) / 8;
    }
}

package dev.rmtemu.model.target;

import java.util.function.LongSupplier;
import dev.rmtemu.model.phv.PortNumbers;

/**
 * Checks that span fields: the products and sums the model and the engine form
 * from a profile (front-panel ports, memory bits per stage, PHV bits, buffer
 * cells), computed with exact arithmetic so that no value wraps, and the
 * relations between fields (a register cell is at most a lo/hi pair of words).
 */
final class ProfileProducts {
    private ProfileProducts() {
    }

    static void check(TargetProfile p, ProfileReader r) {
        if (p.portsPerPipe() != TargetProfile.UNLIMITED) {
            long ports = exact(r, "pipes × portsPerPipe", () -> Math.multiplyExact((long) p.pipes(), p.portsPerPipe()));
            if (ports > PortNumbers.RECIRCULATION_BASE) {
                throw r.error("pipes × portsPerPipe = " + p.pipes() + " × " + p.portsPerPipe() + " = " + ports
                        + " front-panel ports, more than the " + PortNumbers.RECIRCULATION_BASE
                        + " port numbers below the recirculation ports");
            }
        }
        memoryBits(p.sram(), "sram", r);
        memoryBits(p.tcam(), "tcam", r);
        exact(r, "phvContainers (sum of count × widthBits)", () -> {
            long bits = 0;
            for (PhvContainerGroup g : p.phvContainers()) {
                if (g.count() != TargetProfile.UNLIMITED) {
                    bits = Math.addExact(bits, Math.multiplyExact((long) g.count(), g.widthBits()));
                }
            }
            return bits;
        });
        if (p.tmBufferBytes() < p.tmCellBytes()) {
            throw r.error("tmBufferBytes (" + p.tmBufferBytes() + ") must hold at least one cell of tmCellBytes ("
                    + p.tmCellBytes() + ")");
        }
        for (int i = 0; i < p.registerCellWidths().size(); i++) {
            int w = p.registerCellWidths().get(i);
            if (w > 2L * p.registerWordBits()) {
                throw r.error("registerCellWidths[" + i + "] = " + w + " is wider than a lo/hi pair of "
                        + p.registerWordBits() + "-bit registerWordBits");
            }
        }
    }

    private static void memoryBits(MemoryGeometry m, String name, ProfileReader r) {
        if (!m.unlimited()) {
            exact(r, name + " (blocks × depth × widthBits)",
                    () -> Math.multiplyExact(Math.multiplyExact((long) m.blocks(), m.depth()), m.widthBits()));
        }
    }

    private static long exact(ProfileReader r, String what, LongSupplier product) {
        try {
            return product.getAsLong();
        } catch (ArithmeticException e) {
            throw r.error(what + " overflows a 64-bit count");
        }
    }
}

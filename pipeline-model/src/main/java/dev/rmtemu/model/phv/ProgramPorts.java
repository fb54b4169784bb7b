package dev.rmtemu.model.phv;

import java.util.Arrays;

/**
 * The port numbers a program sees, against rmtemu's own ({@link PortNumbers}: front-panel
 * ports 0..pipes x portsPerPipe - 1, pipe = port / portsPerPipe; recirculation ports 448 +
 * pipe). A Java IR program sees rmtemu's numbers. A P4 program sees TNA's {@code PortId_t}
 * (tofino1: 9 bits, pipe = port >> 7, the pipe-local port in the low 7 bits): rmtemu's front
 * port {@code pipe x portsPerPipe + k} is {@code pipe << 7 | k}, and a pipe's recirculation port
 * (also the packet generator's) is {@code pipe << 7 | 68}, as on Tofino 1 (68, 196, 324, 452).
 * Pipe 0's front ports keep their numbers. The mapping applies to every port value crossing
 * the program's boundary: ig_intr_md.ingress_port, ig_tm_md.ucast_egress_port,
 * eg_intr_md.egress_port, and the ports of control-script commands.
 *
 * <p>TNA's numbering needs a target whose pipes' ports fit it: at most {@link #MAX_PIPES} pipes
 * (9 bits) and at most {@link #FRONT_LOCAL_PORTS} ports a pipe (local ports 64..71 are Tofino's
 * internal ports). On any other profile (rmtemu's {@code unconstrained}, for one) a P4 program
 * sees rmtemu's numbers. {@link PortNumbers#UNSET} (511) means "no port" in both numberings;
 * a program number that names no port of the target leaves the packet without an egress port.
 */
public final class ProgramPorts {
    /** PortId_t: the pipe in the bits above the low 7 (tofino1). */
    public static final int PIPE_SHIFT = 7;
    /** Each pipe's recirculation port in TNA's numbering, pipe-local (Tofino 1's 68, 196, 324, 452). */
    public static final int RECIRCULATION_LOCAL = 68;
    /** Pipe-local front-panel ports TNA numbers below its internal ports (64..71). */
    public static final int FRONT_LOCAL_PORTS = 64;
    /** Pipes a 9-bit PortId_t numbers. */
    public static final int MAX_PIPES = 4;
    /** Every 9-bit port value. */
    private static final int PORT_SPACE = 1 << 9;
    private static final ProgramPorts IDENTITY = new ProgramPorts(false, 0, 0);

    private final boolean tna;
    /** rmtemu port -> program port, for every 9-bit value. */
    private final int[] toProgram = new int[PORT_SPACE];
    /** program port -> rmtemu port, for every 9-bit value; -1 names no port. */
    private final int[] toEngine = new int[PORT_SPACE];

    private ProgramPorts(boolean tna, int pipes, int portsPerPipe) {
        this.tna = tna;
        for (int p = 0; p < PORT_SPACE; p++) {
            toProgram[p] = p;
            toEngine[p] = p;
        }
        if (!tna) {
            return;
        }
        Arrays.fill(toEngine, -1);
        toEngine[PortNumbers.UNSET] = PortNumbers.UNSET;
        for (int pipe = 0; pipe < pipes; pipe++) {
            for (int k = 0; k < portsPerPipe; k++) {
                map(pipe * portsPerPipe + k, pipe << PIPE_SHIFT | k);
            }
            map(PortNumbers.recirculationPort(pipe), pipe << PIPE_SHIFT | RECIRCULATION_LOCAL);
        }
    }

    private void map(int engine, int program) {
        toProgram[engine] = program;
        toEngine[program] = engine;
    }

    /** rmtemu's own numbers (a Java IR program's view). */
    public static ProgramPorts identity() {
        return IDENTITY;
    }

    /**
     * TNA's numbering on a target of {@code pipes} pipes of {@code portsPerPipe} ports (the
     * profile's; "unlimited" is Integer.MAX_VALUE) when they fit it, else rmtemu's (see the class comment).
     */
    public static ProgramPorts tna(int pipes, int portsPerPipe) {
        if (!fitsTna(pipes, portsPerPipe)) {
            return IDENTITY;
        }
        return new ProgramPorts(true, pipes, portsPerPipe);
    }

    /** True when TNA's port numbering can number every port of such a target. */
    public static boolean fitsTna(int pipes, int portsPerPipe) {
        return pipes <= MAX_PIPES && portsPerPipe <= FRONT_LOCAL_PORTS;
    }

    /** The program's view of ports: TNA's for a P4 program ({@code tnaProgram}) on a target that fits it, else rmtemu's. */
    public static ProgramPorts of(int pipes, int portsPerPipe, boolean tnaProgram) {
        return tnaProgram ? tna(pipes, portsPerPipe) : IDENTITY;
    }

    /** True when the program sees TNA's numbers. */
    public boolean tna() {
        return tna;
    }

    /** The number the program sees for rmtemu port {@code port} (0..511). */
    public int toProgram(int port) {
        return toProgram[port & (PORT_SPACE - 1)];
    }

    /** The rmtemu port a program's port number names, or -1 when it names none (a 9-bit value: higher bits are ignored). */
    public int toEngine(int programPort) {
        return toEngine[programPort & (PORT_SPACE - 1)];
    }
}

package dev.rmtemu.programs.midst.experiment;

/**
 * A deterministic TCP-like sender model for N flows, driven by what the switch does to
 * their packets. Not a TCP implementation: just enough window dynamics for a flow's sending
 * rate to react to its own losses.
 * <ul>
 *   <li>Window: the flow keeps at most floor(cwnd) packets in flight, and cwnd never exceeds
 *   the flow's receive window; slow start (+1 per ACK) below ssthresh, congestion avoidance
 *   (+1/cwnd per ACK) above.</li>
 *   <li>ACKs: the receiver sits right behind the switch; a packet's ACK reaches the sender
 *   one base RTT after the packet leaves the congested port.</li>
 *   <li>Loss by gap: packets of a flow leave its queue in order, so an ACK for sequence s
 *   after s' &lt; s − 1 means s' + 1 .. s − 1 were dropped (the duplicate-ACK signal, on
 *   the first out-of-order packet rather than the third). Reaction: ssthresh = cwnd / 2,
 *   cwnd = ssthresh, once per window (until an ACK beyond the packets sent at the loss).</li>
 *   <li>Timeout: no ACK for RTO = max(min RTO, 2 RTT) × backoff with packets in flight: all
 *   of them count as lost, cwnd = 1, the backoff doubles (up to {@link #MAX_BACKOFF});
 *   progress resets it. ACKs for packets written off this way are ignored.</li>
 *   <li>Lost packets are not retransmitted as such: every send is a new packet of the flow
 *   (sequence 1, 2, ...), which keeps per-flow ground truth simple; the rate dynamics are
 *   those of a sender that resends what it lost.</li>
 * </ul>
 * The model has no clock of its own: callers pass times in ns and it answers with the
 * time of the next send it wants ({@link #sendTime}).
 */
final class TcpLikeFlows {
    /** Initial window in packets (RFC 6928). */
    static final int INITIAL_WINDOW = 10;
    /** Initial ssthresh in packets: the first slow start stops here at the latest. */
    static final int INITIAL_SSTHRESH = 64;
    /** Largest timeout backoff factor. */
    static final int MAX_BACKOFF = 64;

    private final long[] rttNs;
    private final int[] receiveWindow;
    private final long minRtoNs;
    private final long serialisationNs;
    private final double[] cwnd;
    private final double[] ssthresh;
    private final int[] sent;
    private final int[] inFlight;
    private final int[] highestAcked;
    private final int[] recover;
    private final int[] backoff;
    private final long[] lastProgressNs;
    private final long[] nextFreeNs;
    private final long[] losses;
    private final long[] timeouts;

    /**
     * @param rttNs           base round-trip time of each flow
     * @param minRtoNs        lower bound of the retransmission timeout
     * @param serialisationNs time one packet takes on the sender's access link (back-to-back sends are this far apart)
     * @param receiveWindow   per flow, the most packets the receiver lets it have in flight
     */
    TcpLikeFlows(long[] rttNs, long minRtoNs, long serialisationNs, int[] receiveWindow) {
        int n = rttNs.length;
        if (receiveWindow.length != n) {
            throw new IllegalArgumentException("one receive window per flow");
        }
        this.rttNs = rttNs.clone();
        this.receiveWindow = receiveWindow.clone();
        this.minRtoNs = minRtoNs;
        this.serialisationNs = serialisationNs;
        cwnd = new double[n];
        ssthresh = new double[n];
        sent = new int[n];
        inFlight = new int[n];
        highestAcked = new int[n];
        recover = new int[n];
        backoff = new int[n];
        lastProgressNs = new long[n];
        nextFreeNs = new long[n];
        losses = new long[n];
        timeouts = new long[n];
        for (int f = 0; f < n; f++) {
            cwnd[f] = Math.min(INITIAL_WINDOW, receiveWindow[f]);
            ssthresh[f] = INITIAL_SSTHRESH;
            backoff[f] = 1;
        }
    }

    int flows() {
        return rttNs.length;
    }

    long rttNs(int f) {
        return rttNs[f];
    }

    /** When flow f may send its next packet at or after {@code now}, or -1 if its window is full. */
    long sendTime(int f, long now) {
        return inFlight[f] < (int) cwnd[f] ? Math.max(now, nextFreeNs[f]) : -1;
    }

    /** Flow f sends a packet at {@code now}; returns its sequence number (1, 2, ...). */
    int send(int f, long now) {
        if (inFlight[f] == 0) {
            lastProgressNs[f] = now; // the timer starts with the first packet in flight
        }
        inFlight[f]++;
        nextFreeNs[f] = now + serialisationNs;
        return ++sent[f];
    }

    /** The ACK of flow f's packet {@code seq} arrives at {@code now}. */
    void ack(int f, int seq, long now) {
        if (seq <= highestAcked[f]) {
            return; // written off by a timeout
        }
        int gap = seq - highestAcked[f] - 1;
        inFlight[f] -= gap + 1;
        highestAcked[f] = seq;
        lastProgressNs[f] = now;
        backoff[f] = 1;
        if (gap > 0) {
            losses[f] += gap;
            if (seq > recover[f]) {
                ssthresh[f] = Math.max(2, cwnd[f] / 2);
                cwnd[f] = ssthresh[f];
                recover[f] = sent[f];
            }
        } else if (cwnd[f] < ssthresh[f]) {
            cwnd[f] = Math.min(receiveWindow[f], cwnd[f] + 1);
        } else {
            cwnd[f] = Math.min(receiveWindow[f], cwnd[f] + 1 / cwnd[f]);
        }
    }

    /** When flow f's retransmission timer fires (-1 when nothing is in flight). */
    long timeoutAt(int f) {
        if (inFlight[f] == 0) {
            return -1;
        }
        return lastProgressNs[f] + Math.max(minRtoNs, 2 * rttNs[f]) * backoff[f];
    }

    /** The timer of flow f fired at {@code now} (callers check {@link #timeoutAt} first). */
    void timeout(int f, long now) {
        losses[f] += inFlight[f];
        inFlight[f] = 0;
        highestAcked[f] = sent[f];
        recover[f] = sent[f];
        ssthresh[f] = Math.max(2, cwnd[f] / 2);
        cwnd[f] = 1;
        backoff[f] = Math.min(MAX_BACKOFF, backoff[f] * 2);
        lastProgressNs[f] = now;
        timeouts[f]++;
    }

    int sent(int f) {
        return sent[f];
    }

    double cwnd(int f) {
        return cwnd[f];
    }

    /** Packets the sender believes lost (gaps and timeouts). */
    long losses(int f) {
        return losses[f];
    }

    long timeouts(int f) {
        return timeouts[f];
    }
}

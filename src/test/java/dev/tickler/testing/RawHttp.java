package dev.tickler.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.restassured.RestAssured;

/**
 * HTTP/1.1 written by hand on a plain socket, for what a well-behaved client library never does: hang up right
 * after the body, reset the connection, leave out Host, or send a body in chunks past a limit.
 */
public final class RawHttp {

    /** How the client leaves once its request is written. */
    public enum Departure {
        /** Reads the answer, then closes. */
        READ_ANSWER,
        /** Closes its side at once (FIN) without reading the answer. */
        CLOSE,
        /** Resets the connection at once (RST) without reading the answer. */
        RESET
    }

    private RawHttp() {
    }

    /** The application's public port in this test run. */
    public static int port() {
        return RestAssured.port;
    }

    /** A POST with a Content-Length body; answers the raw answer text when the client reads it, else "". */
    public static String post(String path, String contentType, String body, Departure departure) {
        return exchange(postRequest(path, contentType, body), departure);
    }

    /** The bytes of a POST with a Content-Length body. */
    public static byte[] postRequest(String path, String contentType, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + contentType
                + "\r\nContent-Length: " + bytes.length + "\r\n\r\n";
        return concat(head.getBytes(StandardCharsets.US_ASCII), bytes);
    }

    /** The bytes of a chunked POST of {@code totalBytes} body bytes in 16 KiB chunks. */
    public static byte[] chunkedPostRequest(String path, int totalBytes) {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        byte[] chunk = "x".repeat(16 * 1024).getBytes(StandardCharsets.US_ASCII);
        for (int sent = 0; sent < totalBytes; sent += chunk.length) {
            request.writeBytes((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            request.writeBytes(chunk);
            request.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        request.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return request.toByteArray();
    }

    /** The bytes of a plain GET. */
    public static byte[] getRequest(String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Writes the requests one after the other on one connection, each once the answer to the one before has been read,
     * and answers the raw answers in order ("" for one that never came). The server handles the requests of a
     * connection in turn, so what it does for the last one (its access-log line, say) comes after it was done with
     * every one before.
     */
    public static List<String> exchangeInTurn(byte[]... requests) {
        List<String> answers = new ArrayList<>();
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(10_000);
            for (byte[] request : requests) {
                socket.getOutputStream().write(request);
                socket.getOutputStream().flush();
                answers.add(readAnswer(socket.getInputStream()));
            }
            return answers;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the bytes as they are and leaves as told; answers what came back when the client reads. */
    public static String exchange(byte[] request, Departure departure) {
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(10_000);
            if (departure == Departure.RESET) {
                socket.setSoLinger(true, 0);
            }
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            if (departure != Departure.READ_ANSWER) {
                return "";
            }
            return readAnswer(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A chunked POST of {@code totalBytes} body bytes in 16 KiB chunks; answers what came back, which may be cut short
     * when the server closes the connection at its limit.
     */
    public static String postChunked(String path, int totalBytes, String... extraHeaders) {
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.setSoTimeout(10_000);
            var out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + String.join("", Arrays.stream(extraHeaders).map(header -> header + "\r\n").toList())
                    + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = "x".repeat(16 * 1024).getBytes(StandardCharsets.US_ASCII);
            try {
                for (int sent = 0; sent < totalBytes; sent += chunk.length) {
                    out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(chunk);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException closedByServer) {
                // the server answered and closed before the whole body was sent: read what it said
            }
            return readAnswer(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends the head and part of a Content-Length body, then resets the connection. */
    public static void resetMidBody(String path, int declaredBytes, int sentBytes) {
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.setSoLinger(true, 0);
            var out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + declaredBytes + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write("{\"reminder_id\": 1, ".repeat(sentBytes / 19 + 1).substring(0, sentBytes)
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(100);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The status code of a raw answer, or 0 when nothing came back. */
    public static int status(String answer) {
        if (!answer.startsWith("HTTP/1.")) {
            return 0;
        }
        return Integer.parseInt(answer.substring(9, 12));
    }

    /** The body of a raw answer (after the blank line), as text. */
    public static String body(String answer) {
        int blank = answer.indexOf("\r\n\r\n");
        return blank < 0 ? "" : answer.substring(blank + 4);
    }

    private static String readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int read;
            while ((read = in.read(buffer)) > 0) {
                answer.write(buffer, 0, read);
                if (isComplete(answer.toString(StandardCharsets.ISO_8859_1))) {
                    break;
                }
            }
        } catch (SocketTimeoutException | java.net.SocketException endedByServer) {
            // whatever arrived before the server hung up is the answer
        }
        return answer.toString(StandardCharsets.UTF_8);
    }

    /** A head with Content-Length whose body has fully arrived, or a head of an answer with no body. */
    public static boolean isComplete(String soFar) {
        int blank = soFar.indexOf("\r\n\r\n");
        if (blank < 0) {
            return false;
        }
        String head = soFar.substring(0, blank).toLowerCase();
        int at = head.indexOf("content-length:");
        if (at < 0) {
            return !head.contains("transfer-encoding: chunked") || soFar.endsWith("0\r\n\r\n");
        }
        int end = head.indexOf("\r\n", at);
        long length = Long.parseLong(head.substring(at + 15, end < 0 ? head.length() : end).trim());
        return soFar.length() - blank - 4 >= length;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}

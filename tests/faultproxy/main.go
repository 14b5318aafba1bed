// Command faultproxy sits between sextantd and the test cluster's kube-apiserver and breaks
// the conversation on request, the ways a real network and a real, loaded API server do:
//
//	stall   a watch goes silent without closing: no byte, no bookmark, until the client gives up
//	cut     a watch is reset (TCP RST) halfway through an event's JSON line
//	status  requests are answered with an HTTP status of the test's choosing (429 with
//	        Retry-After, 500, 503) instead of being forwarded
//	hang    a request is taken (its body read) and never answered, until the client gives up:
//	        an API server that accepts and does not answer
//	reset   a request is taken and its connection reset (TCP RST) with no answer at all
//	hide    an API group is not served, until cleared: discovery (/apis) leaves it out and its
//	        paths answer 404, as an API server just restarted answers before it has installed
//	        its CRDs' paths (MATCH is the group; COUNT is ignored)
//
// It speaks HTTPS to the daemon (a certificate it makes, whose CA it writes to DIR/ca.crt) and
// HTTPS to the API server, forwarding the daemon's own credentials. Every request is recorded
// with its time and answer, so that a test can check how fast the daemon retried.
//
//	faultproxy --dir DIR --upstream https://127.0.0.1:PORT --upstream-ca CA.crt
//
// writes DIR/proxy.env (URL, CA_CRT, CONTROL) and then DIR/ready. The control port (plain
// HTTP, loopback) takes:
//
//	POST /fault?kind=stall|cut|status|hang|reset|hide&match=PATH&verb=list|watch|any&count=N&code=C&retryAfter=S
//	POST /drop                       reset every open watch at once (a partition's end)
//	POST /clear                      forget every armed fault
//	GET  /requests                   every request so far, as JSON (see record)
//
// PATH is matched exactly against the request's path ("/api/v1/pods"); empty matches all. A
// list is any GET that is not a watch, or a streaming list (a watch with sendInitialEvents); a
// watch is any other watch.
// Only the Go standard library is used.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A fault armed by the test, consumed by the next `count` requests (or watch lines) it matches.
type fault struct {
	Kind       string `json:"kind"`
	Match      string `json:"match"`
	Verb       string `json:"verb"`
	Count      int    `json:"count"`
	Code       int    `json:"code"`
	RetryAfter int    `json:"retryAfter"`
}

// One request as the proxy saw it. Times are milliseconds since the proxy started.
type record struct {
	ID         int    `json:"id"`
	Ms         int64  `json:"ms"`
	Method     string `json:"method"`
	Path       string `json:"path"`
	Query      string `json:"query"`
	Watch      bool   `json:"watch"`      // a watch, not a streaming list
	Status     int    `json:"status"`     // what the daemon was answered (0 while in flight)
	Fault      string `json:"fault"`      // "", "status", "stall", "cut", "drop", "hang", "reset"
	RetryAfter int    `json:"retryAfter"` // seconds, of an answer (forwarded or a status fault) that said so
	StallMs    int64  `json:"stallMs"`    // when the stall began (-1: none)
	EndMs      int64  `json:"endMs"`      // when the exchange ended (-1: still open)
}

type proxy struct {
	upstream  string
	transport *http.Transport
	start     time.Time

	mu      sync.Mutex
	faults  []*fault
	records []*record
	open    map[*record]context.CancelFunc // watches being relayed, to drop them
	dropped map[*record]bool
}

type connKey struct{}

func newProxy(upstream string, roots *x509.CertPool) *proxy {
	return &proxy{
		upstream: upstream,
		start:    time.Now(),
		open:     map[*record]context.CancelFunc{},
		dropped:  map[*record]bool{},
		transport: &http.Transport{
			TLSClientConfig:     &tls.Config{RootCAs: roots},
			DisableCompression:  true, // watch lines pass as the API server wrote them
			MaxIdleConnsPerHost: 32,
		},
	}
}

func (p *proxy) now() int64 { return time.Since(p.start).Milliseconds() }

// take consumes one use of the first armed fault of `kind` that matches; nil when none does.
// `watch` is false for a list, streaming or not.
func (p *proxy) take(kind, path string, watch bool) *fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, f := range p.faults {
		if f.Kind != kind || (f.Match != "" && f.Match != path) {
			continue
		}
		if (f.Verb == "watch" && !watch) || (f.Verb == "list" && watch) {
			continue
		}
		f.Count--
		if f.Count <= 0 {
			p.faults = append(p.faults[:i], p.faults[i+1:]...)
		}
		taken := *f
		return &taken
	}
	return nil
}

func (p *proxy) update(r *record, change func(*record)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	change(r)
}

func isWatch(r *http.Request) bool {
	w := r.URL.Query().Get("watch")
	return w == "1" || w == "true"
}

// A streaming list is a watch that starts with the whole collection: a list for the tests.
func isStreamingList(r *http.Request) bool {
	return isWatch(r) && r.URL.Query().Get("sendInitialEvents") == "true"
}

var hopByHop = map[string]bool{
	"Connection": true, "Keep-Alive": true, "Proxy-Authenticate": true, "Proxy-Authorization": true,
	"Te": true, "Trailer": true, "Transfer-Encoding": true, "Upgrade": true,
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	watch := isWatch(r)
	plainWatch := watch && !isStreamingList(r)
	rec := &record{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Watch: plainWatch, StallMs: -1, EndMs: -1}
	p.mu.Lock()
	rec.ID = len(p.records)
	rec.Ms = p.now()
	p.records = append(p.records, rec)
	p.mu.Unlock()
	defer func() { p.update(rec, func(r *record) { r.EndMs = p.now() }) }()

	if f := p.take("status", r.URL.Path, plainWatch); f != nil {
		p.refuse(w, rec, f)
		return
	}
	hidden := p.hiddenGroups()
	if group := groupOf(r.URL.Path); group != "" && hidden[group] {
		f := &fault{Code: http.StatusNotFound}
		p.refuse(w, rec, f)
		p.update(rec, func(r *record) { r.Fault = "hide" })
		return
	}
	if p.take("hang", r.URL.Path, plainWatch) != nil {
		p.update(rec, func(r *record) {
			r.Fault = "hang"
			r.StallMs = p.now()
		})
		// Go notices the client leaving only once the request's body has been read.
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
		return
	}
	if p.take("reset", r.URL.Path, plainWatch) != nil {
		io.Copy(io.Discard, r.Body)
		p.update(rec, func(r *record) { r.Fault = "reset" })
		reset(r.Context())
		panic(http.ErrAbortHandler)
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if watch {
		p.mu.Lock()
		p.open[rec] = cancel
		p.mu.Unlock()
		defer func() {
			p.mu.Lock()
			delete(p.open, rec)
			p.mu.Unlock()
		}()
	}
	out, err := http.NewRequestWithContext(ctx, r.Method, p.upstream+r.URL.RequestURI(), r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	filterDiscovery := r.URL.Path == "/apis" && len(hidden) > 0
	for name, values := range r.Header {
		if !hopByHop[name] && !(filterDiscovery && name == "Accept-Encoding") {
			out.Header[name] = values
		}
	}
	resp, err := p.transport.RoundTrip(out)
	if err != nil {
		p.update(rec, func(r *record) { r.Status = http.StatusBadGateway })
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for name, values := range resp.Header {
		if !hopByHop[name] && !(watch && name == "Content-Length") {
			w.Header()[name] = values
		}
	}
	if filterDiscovery && resp.StatusCode == http.StatusOK {
		p.update(rec, func(r *record) { r.Status = resp.StatusCode })
		body, err := withoutGroups(resp.Body, hidden)
		if err != nil {
			log.Printf("hide: /apis not filtered: %v", err)
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(resp.StatusCode)
		w.Write(body)
		p.update(rec, func(r *record) { r.Fault = "hide" })
		return
	}
	w.WriteHeader(resp.StatusCode)
	// The API server's own Retry-After (priority and fairness, --max-requests-inflight) is
	// recorded too, so that a test can check the daemon waited it out.
	retryAfter, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	p.update(rec, func(r *record) {
		r.Status = resp.StatusCode
		r.RetryAfter = retryAfter
	})
	if !watch || resp.StatusCode != http.StatusOK {
		io.Copy(w, resp.Body)
		return
	}
	p.relayWatch(w, r, rec, resp.Body, plainWatch)
}

// hiddenGroups are the groups a "hide" fault takes out of discovery now.
func (p *proxy) hiddenGroups() map[string]bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	hidden := map[string]bool{}
	for _, f := range p.faults {
		if f.Kind == "hide" {
			hidden[f.Match] = true
		}
	}
	return hidden
}

// groupOf is the API group a path belongs to: "kueue.x-k8s.io" for /apis/kueue.x-k8s.io/...
func groupOf(path string) string {
	rest, ok := strings.CutPrefix(path, "/apis/")
	if !ok {
		return ""
	}
	group, _, _ := strings.Cut(rest, "/")
	return group
}

// withoutGroups is an /apis answer, aggregated (items) or not (groups), without `hidden`.
func withoutGroups(body io.Reader, hidden map[string]bool) ([]byte, error) {
	raw, err := io.ReadAll(body)
	if err != nil {
		return raw, err
	}
	var document map[string]any
	if err := json.Unmarshal(raw, &document); err != nil {
		return raw, err
	}
	for _, field := range []string{"items", "groups"} {
		list, ok := document[field].([]any)
		if !ok {
			continue
		}
		kept := []any{}
		for _, entry := range list {
			fields, _ := entry.(map[string]any)
			name, _ := fields["name"].(string)
			if metadata, ok := fields["metadata"].(map[string]any); ok {
				name, _ = metadata["name"].(string)
			}
			if !hidden[name] {
				kept = append(kept, entry)
			}
		}
		document[field] = kept
	}
	return json.Marshal(document)
}

// refuse answers as a loaded API server does: a Status, and Retry-After when asked for.
func (p *proxy) refuse(w http.ResponseWriter, rec *record, f *fault) {
	reason := map[int]string{404: "NotFound", 429: "TooManyRequests", 500: "InternalError", 503: "ServiceUnavailable"}[f.Code]
	status := map[string]any{
		"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
		"message": fmt.Sprintf("injected by faultproxy: %d", f.Code), "reason": reason, "code": f.Code,
	}
	if f.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
		status["details"] = map[string]any{"retryAfterSeconds": f.RetryAfter}
	}
	body, _ := json.Marshal(status)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.Code)
	w.Write(body)
	p.update(rec, func(r *record) {
		r.Status = f.Code
		r.Fault = "status"
		r.RetryAfter = f.RetryAfter
	})
}

// relayWatch passes a watch on line by line (one event a line), stalling or cutting it when a
// fault armed for it says so.
func (p *proxy) relayWatch(w http.ResponseWriter, r *http.Request, rec *record, body io.Reader, plain bool) {
	flusher, _ := w.(http.Flusher)
	flush := func() {
		if flusher != nil {
			flusher.Flush()
		}
	}
	flush() // the header goes out at once, as the API server's does
	stall := func() {
		p.update(rec, func(r *record) {
			r.Fault = "stall"
			r.StallMs = p.now()
		})
		<-r.Context().Done() // silent until the client gives up (or the proxy stops)
	}
	if p.take("stall", r.URL.Path, plain) != nil {
		stall()
		return
	}
	lines := bufio.NewReaderSize(body, 1<<20)
	for {
		line, err := lines.ReadBytes('\n')
		if len(line) > 0 {
			if p.take("stall", r.URL.Path, plain) != nil {
				stall()
				return
			}
			if !bytes.Contains(line, []byte(`"type":"BOOKMARK"`)) && p.take("cut", r.URL.Path, plain) != nil {
				w.Write(line[:len(line)/2])
				flush()
				p.update(rec, func(r *record) { r.Fault = "cut" })
				reset(r.Context())
				panic(http.ErrAbortHandler) // closes the connection with the event half sent
			}
			if _, werr := w.Write(line); werr != nil {
				return
			}
			flush()
		}
		if err != nil {
			p.mu.Lock()
			dropped := p.dropped[rec]
			p.mu.Unlock()
			if dropped {
				p.update(rec, func(r *record) { r.Fault = "drop" })
				reset(r.Context())
				panic(http.ErrAbortHandler)
			}
			return
		}
	}
}

// reset makes the connection's close a TCP reset rather than an orderly FIN.
func reset(ctx context.Context) {
	conn, _ := ctx.Value(connKey{}).(net.Conn)
	if t, ok := conn.(*tls.Conn); ok {
		conn = t.NetConn()
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		tcp.SetLinger(0)
	}
}

func (p *proxy) control() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /fault", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		f := &fault{Kind: q.Get("kind"), Match: q.Get("match"), Verb: q.Get("verb"), Count: 1}
		if f.Verb == "" {
			f.Verb = "any"
		}
		var err error
		for name, target := range map[string]*int{"count": &f.Count, "code": &f.Code, "retryAfter": &f.RetryAfter} {
			if v := q.Get(name); v != "" {
				if *target, err = strconv.Atoi(v); err != nil {
					http.Error(w, name+": "+err.Error(), http.StatusBadRequest)
					return
				}
			}
		}
		known := f.Kind == "stall" || f.Kind == "cut" || f.Kind == "hang" || f.Kind == "reset" ||
			(f.Kind == "hide" && f.Match != "")
		if !known && !(f.Kind == "status" && f.Code >= 400) {
			http.Error(w, "kind must be stall, cut, hang, reset, hide (with a group) or status (with code)",
				http.StatusBadRequest)
			return
		}
		p.mu.Lock()
		p.faults = append(p.faults, f)
		p.mu.Unlock()
		json.NewEncoder(w).Encode(f)
	})
	mux.HandleFunc("POST /drop", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		n := len(p.open)
		for rec, cancel := range p.open {
			p.dropped[rec] = true
			cancel()
		}
		p.mu.Unlock()
		fmt.Fprintf(w, "{\"dropped\":%d}", n)
	})
	mux.HandleFunc("POST /clear", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.faults = nil
		p.mu.Unlock()
		w.Write([]byte("{}"))
	})
	mux.HandleFunc("GET /requests", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		body, err := json.Marshal(p.records)
		p.mu.Unlock()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	return mux
}

// selfSigned makes the proxy's serving certificate for 127.0.0.1, and writes it as the CA the
// daemon trusts.
func selfSigned(caFile string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	template := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "faultproxy"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

func main() {
	dir := flag.String("dir", "", "folder for proxy.env, ca.crt and ready")
	upstream := flag.String("upstream", "", "the API server, https://127.0.0.1:PORT")
	upstreamCA := flag.String("upstream-ca", "", "the API server's CA bundle")
	flag.Parse()
	if *dir == "" || *upstream == "" || *upstreamCA == "" {
		log.Fatal("usage: faultproxy --dir DIR --upstream URL --upstream-ca FILE")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	caPEM, err := os.ReadFile(*upstreamCA)
	if err != nil {
		log.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		log.Fatalf("%s holds no certificate", *upstreamCA)
	}
	p := newProxy(*upstream, roots)
	caFile := filepath.Join(*dir, "ca.crt")
	cert, err := selfSigned(caFile)
	if err != nil {
		log.Fatal(err)
	}
	front, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	back, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	server := &http.Server{
		Handler: p,
		// HTTP/1.1 only, as sextantd speaks it: a nil TLSNextProto would offer h2.
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
		TLSConfig:    &tls.Config{Certificates: []tls.Certificate{cert}},
		ConnContext:  func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) },
		ErrorLog:     log.New(io.Discard, "", 0),
	}
	go func() { log.Fatal(server.ServeTLS(front, "", "")) }()
	go func() { log.Fatal(http.Serve(back, p.control())) }()

	env := fmt.Sprintf("URL=https://%s\nCA_CRT=%s\nCONTROL=http://%s\n", front.Addr(), caFile, back.Addr())
	if err := os.WriteFile(filepath.Join(*dir, "proxy.env"), []byte(env), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*dir, "ready"), nil, 0o644); err != nil {
		log.Fatal(err)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
}

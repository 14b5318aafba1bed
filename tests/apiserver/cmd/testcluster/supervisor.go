package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

type options struct {
	dir            string
	crds           stringList
	port           int
	controlPort    int
	watchCache     bool
	draVersions    string
	featureGates   string
	verbosity      int
	apiserverArgs  stringList
	controllers    stringList
	kueue          string
	kueueWebhooks  string
	jobset         string
	jobsetWebhooks string
	kuberay        string
	kserve         string
	kserveWebhooks string
	kserveConfig   string
	gpuOperator    string
	gpuAssets      string
	startupTimeout time.Duration
}

func logf(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "testcluster: "+format+"\n", a...)
}

func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("testcluster", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: testcluster --dir DIR [--crds DIR]... [flags]\n"+
			"       testcluster kube-apiserver [kube-apiserver flags]\n\n")
		fs.PrintDefaults()
	}
	fs.StringVar(&o.dir, "dir", "", "working directory: certificates, tokens, kubeconfigs, etcd data, logs (required)")
	fs.Var(&o.crds, "crds", "directory whose *.yaml CRDs are installed and Established before the ready file (repeatable)")
	fs.IntVar(&o.port, "port", 0, "kube-apiserver secure port on 127.0.0.1 (0: a free port)")
	fs.IntVar(&o.controlPort, "control-port", 0, "control HTTP port on 127.0.0.1 (0: a free port)")
	fs.BoolVar(&o.watchCache, "watch-cache", true, "kube-apiserver --watch-cache (false: every watch is served by etcd)")
	fs.StringVar(&o.draVersions, "dra-versions", "v1,v1beta2,v1beta1,v1alpha3",
		"resource.k8s.io versions to enable with --runtime-config; start-up fails unless all are served")
	fs.StringVar(&o.featureGates, "feature-gates", "DRAResourcePoolStatus=true",
		"kube-apiserver --feature-gates (the default enables the alpha resource.k8s.io/v1alpha3 resource)")
	fs.IntVar(&o.verbosity, "v", 1, "kube-apiserver log verbosity (log: DIR/kube-apiserver.log)")
	fs.Var(&o.apiserverArgs, "apiserver-arg", "extra kube-apiserver flag, e.g. --apiserver-arg=--etcd-compaction-interval=0 (repeatable)")
	fs.Var(&o.controllers, "controllers", "controllers started beside the apiserver once it is ready: "+
		schedulerRole+", "+controllerManagerRole+" (comma list, repeatable; log: DIR/<name>.log)")
	fs.StringVar(&o.kueue, "kueue", "", "Kueue's binary (tests/controllers/bin/kueue): run it beside the apiserver (log: DIR/kueue.log)")
	fs.StringVar(&o.kueueWebhooks, "kueue-webhooks", "", "folder of Kueue's webhook manifests (tests/upstream/fetch.sh webhooks/kueue), registered by URL; required with --kueue")
	fs.StringVar(&o.jobset, "jobset", "", "JobSet's binary (tests/controllers/bin/jobset): run it beside the apiserver (log: DIR/jobset.log)")
	fs.StringVar(&o.jobsetWebhooks, "jobset-webhooks", "", "folder of JobSet's webhook manifests (tests/upstream/fetch.sh webhooks/jobset), registered by URL; required with --jobset")
	fs.StringVar(&o.kuberay, "kuberay", "", "KubeRay's binary (tests/controllers/bin/kuberay): run it beside the apiserver (log: DIR/kuberay.log)")
	fs.StringVar(&o.kserve, "kserve", "", "KServe's controller manager (tests/controllers/bin/kserve): run it beside the apiserver (log: DIR/kserve.log)")
	fs.StringVar(&o.kserveWebhooks, "kserve-webhooks", "", "folder of KServe's webhook manifests (tests/upstream/fetch.sh webhooks/kserve), registered by URL; required with --kserve")
	fs.StringVar(&o.kserveConfig, "kserve-config", "", "folder of KServe's inferenceservice-config ConfigMap (tests/upstream/fetch.sh config/kserve); required with --kserve")
	fs.StringVar(&o.gpuOperator, "gpu-operator", "", "the GPU Operator's binary (tests/controllers/bin/gpu-operator): run it beside the apiserver (log: DIR/gpu-operator.log)")
	fs.StringVar(&o.gpuAssets, "gpu-operator-assets", "", "the GPU Operator's asset folder (tests/controllers/bin/gpu-operator-assets); required with --gpu-operator")
	fs.DurationVar(&o.startupTimeout, "startup-timeout", 3*time.Minute, "limit for etcd + kube-apiserver readiness")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	var controllers stringList
	for _, list := range o.controllers {
		for _, name := range strings.Split(list, ",") {
			if name = strings.TrimSpace(name); name != "" && !slices.Contains(controllers, name) {
				if _, err := controllerArgs(name, "", ""); err != nil {
					return nil, err
				}
				controllers = append(controllers, name)
			}
		}
	}
	o.controllers = controllers
	for _, bin := range []string{o.kueue, o.jobset, o.kuberay, o.kserve, o.gpuOperator} {
		if bin != "" {
			if _, err := os.Stat(bin); err != nil {
				return nil, fmt.Errorf("controller binary not found (tests/controllers/build.sh builds it): %v", err)
			}
		}
	}
	// Without its webhooks an operator's objects are stored as no real install stores them
	// (a Job not suspended, a JobSet without its defaults): refuse rather than mislead.
	for _, pair := range [][4]string{{"kueue", o.kueue, "webhooks", o.kueueWebhooks}, {"jobset", o.jobset, "webhooks", o.jobsetWebhooks},
		{"kserve", o.kserve, "webhooks", o.kserveWebhooks}, {"kserve", o.kserve, "config", o.kserveConfig},
		{"gpu-operator", o.gpuOperator, "assets", o.gpuAssets}} {
		if (pair[1] == "") != (pair[3] == "") {
			return nil, fmt.Errorf("--%s and --%s-%s go together", pair[0], pair[0], pair[2])
		}
	}
	if o.dir == "" {
		return nil, errors.New("--dir is required")
	}
	abs, err := filepath.Abs(o.dir)
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(abs, " \t\n'\"$\\`=") {
		return nil, fmt.Errorf("--dir %q: cluster.env is written unquoted, use a path without blanks, quotes, '$', '=' or '\\'", abs)
	}
	o.dir = abs
	return o, nil
}

// Ports already handed out by this process: a port picked, then closed until its server binds
// it, can come back from the kernel for the next pick (etcd once got the API server's port).
var handedOut = struct {
	sync.Mutex
	ports map[int]bool
}{ports: map[int]bool{}}

func freePort() (int, error) {
	handedOut.Lock()
	defer handedOut.Unlock()
	for {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !handedOut.ports[port] {
			handedOut.ports[port] = true
			return port, nil
		}
	}
}

// writeFile writes atomically (temp file + rename) so a reader never sees a
// partial file.
func writeFile(path string, data []byte, mode os.FileMode) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, mode); err != nil {
		return err
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ---------------------------------------------------------------------------
// kube-apiserver child process

type apiserver struct {
	bin, logPath string
	args         []string
	readyURL     string
	httpClient   *http.Client
	adminToken   string

	mu   sync.Mutex // serialises start/stop/restart
	proc *process   // the current child, nil before the first start
	died chan error // unexpected exits
}

type process struct {
	cmd      *exec.Cmd
	done     chan struct{} // closed when cmd has exited
	stopping atomic.Bool   // set before SIGTERM: the exit is expected
}

func (a *apiserver) start(ctx context.Context, timeout time.Duration) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.startLocked(ctx, timeout)
}

func (a *apiserver) startLocked(ctx context.Context, timeout time.Duration) error {
	logFile, err := os.OpenFile(a.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "==== testcluster: starting kube-apiserver at %s\n", time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(a.bin, append([]string{apiserverRole}, a.args...)...)
	if name, err := os.Executable(); err == nil {
		cmd.Args[0] = name // what ps shows instead of /proc/self/exe
	}
	cmd.Env = append(os.Environ(), parentPIDEnv+"="+strconv.Itoa(os.Getpid()))
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Own process group: a terminal's ^C reaches only the supervisor, which
	// then stops the apiserver in order.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	proc := &process{cmd: cmd, done: make(chan struct{})}
	done := proc.done
	a.proc = proc
	go func() {
		err := cmd.Wait()
		close(done)
		if !proc.stopping.Load() {
			select {
			case a.died <- fmt.Errorf("kube-apiserver (pid %d) exited: %v (log: %s)", cmd.Process.Pid, err, a.logPath):
			default:
			}
		}
	}()

	start := time.Now()
	deadline := time.After(timeout)
	for {
		if a.ready(ctx) {
			logf("kube-apiserver pid %d ready after %.1fs", cmd.Process.Pid, time.Since(start).Seconds())
			return nil
		}
		select {
		case <-done:
			return fmt.Errorf("kube-apiserver exited during start-up; last lines of %s:\n%s", a.logPath, tail(a.logPath, 30))
		case <-ctx.Done():
			a.stopLocked(syscall.SIGTERM)
			return ctx.Err()
		case <-deadline:
			a.stopLocked(syscall.SIGTERM)
			return fmt.Errorf("kube-apiserver not ready after %s; last lines of %s:\n%s", timeout, a.logPath, tail(a.logPath, 30))
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (a *apiserver) ready(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.readyURL, nil)
	req.Header.Set("Authorization", "Bearer "+a.adminToken)
	resp, err := a.httpClient.Do(req)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// stop sends SIGTERM, and SIGKILL after 10 s.
func (a *apiserver) stop() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stopLocked(syscall.SIGTERM)
}

// stopLocked sends sig (SIGKILL after 10 s) and waits for the exit.
func (a *apiserver) stopLocked(sig syscall.Signal) {
	if a.proc == nil {
		return
	}
	cmd, done := a.proc.cmd, a.proc.done
	if !a.proc.stopping.Swap(true) {
		_ = cmd.Process.Signal(sig)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		logf("kube-apiserver pid %d ignored SIGTERM for 10s, killing it", cmd.Process.Pid)
		_ = cmd.Process.Kill()
		<-done
	}
}

func (a *apiserver) restart(ctx context.Context, sig syscall.Signal, timeout time.Duration) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stopLocked(sig)
	if err := a.startLocked(ctx, timeout); err != nil {
		return 0, err
	}
	return a.proc.cmd.Process.Pid, nil
}

func (a *apiserver) pid() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.proc == nil {
		return 0
	}
	return a.proc.cmd.Process.Pid
}

func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// ---------------------------------------------------------------------------
// supervisor

func runSupervisor(args []string) error {
	o, err := parseFlags(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	ctx, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stopSignals()

	crds, err := readCRDs(o.crds)
	if err != nil {
		return err
	}
	webhooks := map[string]*webhookSet{}
	for name, dir := range map[string]string{"kueue": o.kueueWebhooks, "jobset": o.jobsetWebhooks, "kserve": o.kserveWebhooks} {
		if dir != "" {
			if webhooks[name], err = readWebhooks(dir); err != nil {
				return err
			}
		}
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return err
	}
	path := func(name string) string { return filepath.Join(o.dir, name) }
	// A `ready` left by an earlier run must not satisfy a waiting test.
	if err := os.Remove(path("ready")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}

	p, err := newPKI()
	if err != nil {
		return err
	}
	tokens := map[string]string{}
	for _, who := range []string{"admin", "reader", "nobody"} {
		if tokens[who], err = newToken(); err != nil {
			return err
		}
	}
	// token,user,uid,"group1,group2"
	tokenCSV := fmt.Sprintf("%s,admin,admin-uid,system:masters\n%s,sextant-reader,sextant-reader-uid\n%s,nobody,nobody-uid\n",
		tokens["admin"], tokens["reader"], tokens["nobody"])
	files := []struct {
		name string
		data []byte
		mode os.FileMode
	}{
		{"ca.crt", p.serverCA.certPEM, 0o644},
		{"serving.crt", append(append([]byte{}, p.serving.certPEM...), p.serverCA.certPEM...), 0o644},
		{"serving.key", p.serving.keyPEM, 0o600},
		{"client-ca.crt", p.clientCA.certPEM, 0o644},
		{"admin.crt", p.admin.certPEM, 0o644},
		{"admin.key", p.admin.keyPEM, 0o600},
		{"wrong-ca.crt", p.wrongCA.certPEM, 0o644},
		{"wrong-client.crt", p.wrongClient.certPEM, 0o644},
		{"wrong-client.key", p.wrongClient.keyPEM, 0o600},
		{"sa.key", p.saKeyPEM, 0o600},
		{"sa.pub", p.saPubPEM, 0o644},
		{"tokens.csv", []byte(tokenCSV), 0o600},
		{"admin.token", []byte(tokens["admin"]), 0o600},
		{"reader.token", []byte(tokens["reader"]), 0o600},
		{"nobody.token", []byte(tokens["nobody"]), 0o600},
	}
	for _, f := range files {
		if err := writeFile(path(f.name), f.data, f.mode); err != nil {
			return err
		}
	}

	port := o.port
	if port == 0 {
		if port, err = freePort(); err != nil {
			return err
		}
	}
	server := fmt.Sprintf("https://127.0.0.1:%d", port)

	etcdStart := time.Now()
	etcd, err := startEtcd(path("etcd"), path("etcd.log"))
	if err != nil {
		return err
	}
	defer func() {
		etcd.stop()
		logf("etcd stopped")
	}()
	logf("etcd %s ready after %.1fs", etcd.clientURL, time.Since(etcdStart).Seconds())

	var runtimeConfig []string
	for _, v := range strings.Split(o.draVersions, ",") {
		if v = strings.TrimSpace(v); v != "" {
			runtimeConfig = append(runtimeConfig, "resource.k8s.io/"+v+"=true")
		}
	}
	apiArgs := []string{
		"--etcd-servers=" + etcd.clientURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--endpoint-reconciler-type=none",
		"--cert-dir=" + path("pki"),
		"--tls-cert-file=" + path("serving.crt"),
		"--tls-private-key-file=" + path("serving.key"),
		"--client-ca-file=" + path("client-ca.crt"),
		"--token-auth-file=" + path("tokens.csv"),
		"--authorization-mode=RBAC",
		"--service-cluster-ip-range=10.0.0.0/24",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + path("sa.pub"),
		"--service-account-signing-key-file=" + path("sa.key"),
		// No controller-manager creates `default` ServiceAccounts.
		"--disable-admission-plugins=ServiceAccount",
		// End open watches on SIGTERM; with the default 0 the HTTP server
		// waits up to --request-timeout (60s) for them.
		"--shutdown-watch-termination-grace-period=2s",
		"--allow-privileged=true",
		"--profiling=false",
		"--watch-cache=" + strconv.FormatBool(o.watchCache),
		"--v=" + strconv.Itoa(o.verbosity),
	}
	if len(runtimeConfig) > 0 {
		apiArgs = append(apiArgs, "--runtime-config="+strings.Join(runtimeConfig, ","))
	}
	if o.featureGates != "" {
		apiArgs = append(apiArgs, "--feature-gates="+o.featureGates)
	}
	apiArgs = append(apiArgs, o.apiserverArgs...)
	if err := writeFile(path("kube-apiserver.args"), []byte(strings.Join(apiArgs, "\n")+"\n"), 0o644); err != nil {
		return err
	}

	// The apiserver child is this very binary, even if bin/testcluster is
	// rebuilt while the cluster runs (a restart then still matches).
	self := "/proc/self/exe"
	if _, err := os.Stat(self); err != nil {
		if self, err = os.Executable(); err != nil {
			return err
		}
	}
	roots := x509.NewCertPool()
	roots.AddCert(p.serverCA.cert)
	as := &apiserver{
		bin:        self,
		args:       apiArgs,
		logPath:    path("kube-apiserver.log"),
		readyURL:   server + "/readyz",
		adminToken: tokens["admin"],
		httpClient: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}},
		died:       make(chan error, 1),
	}
	if err := as.start(ctx, o.startupTimeout); err != nil {
		return err
	}
	defer func() {
		as.stop()
		logf("kube-apiserver stopped")
	}()

	restCfg := &rest.Config{
		Host:            server,
		BearerToken:     tokens["admin"],
		TLSClientConfig: rest.TLSClientConfig{CAData: p.serverCA.certPEM},
		QPS:             200,
		Burst:           400,
	}
	if err := installCRDs(ctx, restCfg, crds); err != nil {
		return err
	}
	// An earlier run on this --dir may have left webhooks at ports nobody serves now.
	if err := removeWebhooks(ctx, restCfg); err != nil {
		return err
	}

	draServed, err := servedVersions(restCfg, "resource.k8s.io")
	if err != nil {
		return err
	}
	for _, rc := range runtimeConfig {
		v := strings.TrimSuffix(strings.TrimPrefix(rc, "resource.k8s.io/"), "=true")
		if !slices.Contains(draServed, v) {
			return fmt.Errorf("resource.k8s.io/%s was enabled but is not served (served: %v)", v, draServed)
		}
	}
	logf("resource.k8s.io versions served: %s", strings.Join(draServed, ","))

	// Control endpoint.
	cl, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", o.controlPort))
	if err != nil {
		return fmt.Errorf("control port: %w", err)
	}
	control := fmt.Sprintf("http://%s", cl.Addr())
	mux := http.NewServeMux()
	reply := func(w http.ResponseWriter, code int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("POST /compact", func(w http.ResponseWriter, r *http.Request) {
		rev, err := etcd.compact(r.Context())
		if err != nil {
			reply(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
			return
		}
		logf("etcd compacted at revision %d", rev)
		reply(w, http.StatusOK, map[string]int64{"revision": rev})
	})
	mux.HandleFunc("POST /restart-apiserver", func(w http.ResponseWriter, r *http.Request) {
		sig := syscall.SIGTERM
		switch r.URL.Query().Get("signal") {
		case "", "TERM":
		case "KILL":
			sig = syscall.SIGKILL
		default:
			reply(w, http.StatusBadRequest, map[string]string{"error": "signal must be TERM or KILL"})
			return
		}
		start := time.Now()
		pid, err := as.restart(ctx, sig, o.startupTimeout)
		if err == nil {
			wctx, cancel := context.WithTimeout(ctx, o.startupTimeout)
			err = warmCRDs(wctx, restCfg, crds)
			cancel()
		}
		if err != nil {
			reply(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
			select { // the cluster is unusable now: end the run
			case as.died <- fmt.Errorf("restart failed: %w", err):
			default:
			}
			return
		}
		reply(w, http.StatusOK, map[string]any{"pid": pid, "seconds": time.Since(start).Seconds()})
	})
	mux.HandleFunc("POST /restart-etcd", func(w http.ResponseWriter, r *http.Request) {
		down := time.Second
		if v := r.URL.Query().Get("downSeconds"); v != "" {
			secs, err := strconv.ParseFloat(v, 64)
			if err != nil || secs < 0 || secs > 60 {
				reply(w, http.StatusBadRequest, map[string]string{"error": "downSeconds must be 0 to 60"})
				return
			}
			down = time.Duration(secs * float64(time.Second))
		}
		start := time.Now()
		if err := etcd.restart(down); err != nil {
			reply(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
			select { // the cluster is unusable now: end the run
			case etcd.died <- fmt.Errorf("restart failed: %w", err):
			default:
			}
			return
		}
		logf("etcd restarted after %.1fs down", down.Seconds())
		reply(w, http.StatusOK, map[string]any{"seconds": time.Since(start).Seconds()})
	})
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		reply(w, http.StatusOK, map[string]any{"server": server, "apiserverPid": as.pid(), "etcd": etcd.clientURL})
	})
	httpSrv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = httpSrv.Serve(cl) }()
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = httpSrv.Shutdown(sctx)
	}()

	// Kubeconfigs.
	kubeconfigs := []struct {
		file string
		ca   []byte
		user *clientcmdapi.AuthInfo
	}{
		{"kubeconfig-token.yaml", p.serverCA.certPEM, &clientcmdapi.AuthInfo{Token: tokens["admin"]}},
		{"kubeconfig-cert.yaml", p.serverCA.certPEM, &clientcmdapi.AuthInfo{ClientCertificateData: p.admin.certPEM, ClientKeyData: p.admin.keyPEM}},
		{"kubeconfig-reader.yaml", p.serverCA.certPEM, &clientcmdapi.AuthInfo{Token: tokens["reader"]}},
		{"kubeconfig-nobody.yaml", p.serverCA.certPEM, &clientcmdapi.AuthInfo{Token: tokens["nobody"]}},
		{"kubeconfig-wrongca.yaml", p.wrongCA.certPEM, &clientcmdapi.AuthInfo{Token: tokens["admin"]}},
	}
	for _, k := range kubeconfigs {
		cfg := clientcmdapi.NewConfig()
		cfg.Clusters["sextant-test"] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: k.ca}
		cfg.AuthInfos["sextant-test"] = k.user
		cfg.Contexts["sextant-test"] = &clientcmdapi.Context{Cluster: "sextant-test", AuthInfo: "sextant-test", Namespace: "default"}
		cfg.CurrentContext = "sextant-test"
		data, err := clientcmd.Write(*cfg)
		if err != nil {
			return err
		}
		if err := writeFile(path(k.file), data, 0o600); err != nil {
			return err
		}
	}

	// Controllers, once the CRDs are there and the kubeconfigs written; stopped before the
	// apiserver on the way down (defers run last-first).
	controllerDied := make(chan error, 1)
	for _, role := range o.controllers {
		args, _ := controllerArgs(role, path("kubeconfig-token.yaml"), o.dir)
		c, err := startController(self, role, append([]string{role}, args...), nil, path(logName(role)), controllerDied)
		if err != nil {
			return err
		}
		defer func() {
			c.stop()
			logf("%s stopped", c.role)
		}()
	}

	// Kueue, JobSet, KServe and the GPU Operator, each with its webhooks (if any) in effect before
	// `ready`.
	servingPair := append(append([]byte{}, p.serving.certPEM...), p.serverCA.certPEM...)
	operators := []struct {
		role, bin string
		prepare   func() (*launch, error)
	}{
		{"kueue", o.kueue, func() (*launch, error) {
			return prepareKueue(ctx, restCfg, o.dir, path("kubeconfig-token.yaml"), servingPair, p.serving.keyPEM, webhooks["kueue"])
		}},
		{"jobset", o.jobset, func() (*launch, error) {
			return prepareJobSet(o.dir, path("kubeconfig-token.yaml"), servingPair, p.serving.keyPEM, webhooks["jobset"])
		}},
		{"kserve", o.kserve, func() (*launch, error) {
			return prepareKServe(ctx, restCfg, o.dir, path("kubeconfig-token.yaml"), o.kserveConfig, servingPair, p.serving.keyPEM,
				webhooks["kserve"])
		}},
		{"gpu-operator", o.gpuOperator, func() (*launch, error) {
			return prepareGPUOperator(ctx, restCfg, o.dir, path("kubeconfig-token.yaml"), o.gpuAssets)
		}},
	}
	for _, op := range operators {
		if op.bin == "" {
			continue
		}
		l, err := op.prepare()
		if err != nil {
			return err
		}
		c, err := startController(op.bin, op.role, l.args, l.env, path(op.role+".log"), controllerDied)
		if err != nil {
			return err
		}
		o.controllers = append(o.controllers, op.role)
		defer func() {
			c.stop()
			logf("%s stopped", c.role)
		}()
		if l.webhooks.set == nil {
			continue
		}
		if err := startWebhooks(ctx, restCfg, c, l.webhooks, p.serverCA.certPEM, roots, o.startupTimeout); err != nil {
			return err
		}
	}

	if o.kuberay != "" {
		c, err := startController(o.kuberay, "kuberay", kubeRayArgs(), kubeRayEnv(path("kubeconfig-token.yaml")),
			path("kuberay.log"), controllerDied)
		if err != nil {
			return err
		}
		o.controllers = append(o.controllers, "kuberay")
		defer func() {
			c.stop()
			logf("kuberay stopped")
		}()
	}

	env := [][2]string{
		{"SERVER", server},
		{"PORT", strconv.Itoa(port)},
		{"CONTROL", control},
		{"ETCD", etcd.clientURL},
		{"DIR", o.dir},
		{"PID", strconv.Itoa(os.Getpid())},
		{"CA_CRT", path("ca.crt")},
		{"WRONG_CA_CRT", path("wrong-ca.crt")},
		{"CLIENT_CA_CRT", path("client-ca.crt")},
		{"CLIENT_CRT", path("admin.crt")},
		{"CLIENT_KEY", path("admin.key")},
		{"WRONG_CLIENT_CRT", path("wrong-client.crt")},
		{"WRONG_CLIENT_KEY", path("wrong-client.key")},
		{"ADMIN_TOKEN_FILE", path("admin.token")},
		{"READER_TOKEN_FILE", path("reader.token")},
		{"NOBODY_TOKEN_FILE", path("nobody.token")},
		{"KUBECONFIG_TOKEN", path("kubeconfig-token.yaml")},
		{"KUBECONFIG_CERT", path("kubeconfig-cert.yaml")},
		{"KUBECONFIG_READER", path("kubeconfig-reader.yaml")},
		{"KUBECONFIG_NOBODY", path("kubeconfig-nobody.yaml")},
		{"KUBECONFIG_WRONGCA", path("kubeconfig-wrongca.yaml")},
		{"APISERVER_LOG", path("kube-apiserver.log")},
		{"DRA_VERSIONS", strings.Join(draServed, ",")},
		{"CRDS", crdNames(crds)},
		{"CONTROLLERS", strings.Join(o.controllers, ",")},
	}
	for _, role := range o.controllers {
		env = append(env, [2]string{strings.ToUpper(strings.ReplaceAll(role, "-", "_")) + "_LOG", path(logName(role))})
	}
	var envText strings.Builder
	for _, kv := range env {
		fmt.Fprintf(&envText, "%s=%s\n", kv[0], kv[1])
	}
	if err := writeFile(path("cluster.env"), []byte(envText.String()), 0o644); err != nil {
		return err
	}
	if err := writeFile(path("ready"), []byte(server+"\n"), 0o644); err != nil {
		return err
	}
	// `ready` says the cluster is up: take it away first thing on the way down.
	defer os.Remove(path("ready"))
	logf("ready: SERVER=%s CONTROL=%s (%s/cluster.env)", server, control, o.dir)

	select {
	case <-ctx.Done():
		logf("signal received, stopping")
		return nil
	case err := <-as.died:
		return err
	case err := <-controllerDied:
		return err
	case err := <-etcd.died:
		return fmt.Errorf("etcd: %w", err)
	}
}

// servedVersions returns the versions of group that discovery lists,
// preferred first.
func servedVersions(cfg *rest.Config, group string) ([]string, error) {
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	groups, err := disc.ServerGroups()
	if err != nil {
		return nil, err
	}
	for _, g := range groups.Groups {
		if g.Name == group {
			var out []string
			for _, v := range g.Versions {
				out = append(out, v.Version)
			}
			return out, nil
		}
	}
	return nil, nil
}

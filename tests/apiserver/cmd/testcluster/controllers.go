package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"k8s.io/component-base/cli"
	controllermanagerapp "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	schedulerapp "k8s.io/kubernetes/cmd/kube-scheduler/app"
)

// The controllers a test can ask for (--controllers), each upstream's own main run as one more
// role of this binary, as the apiserver is.
const (
	schedulerRole         = "kube-scheduler"
	controllerManagerRole = "kube-controller-manager"
)

// The kube-controller-manager controllers that make sense without a kubelet: the node
// lifecycle controller is left out, as it would taint every node no kubelet reports for. The
// workload controllers make the pods of what the operators create (KServe's Deployments, the
// GPU Operator's DaemonSets) and count them ready once the test writes their status.
const managedControllers = "job-controller,garbage-collector-controller,resourceclaim-controller," +
	"namespace-controller,serviceaccount-token-controller,serviceaccount-controller," +
	"deployment-controller,replicaset-controller,daemonset-controller"

func runScheduler(args []string) int {
	exitWithParent()
	cmd := schedulerapp.NewSchedulerCommand()
	cmd.SetArgs(args)
	return cli.Run(cmd)
}

func runControllerManager(args []string) int {
	exitWithParent()
	cmd := controllermanagerapp.NewControllerManagerCommand()
	cmd.SetArgs(args)
	return cli.Run(cmd)
}

// controllerArgs are the flags of one controller role: no leader election, no serving port
// (nothing listens but the apiserver), the admin kubeconfig.
func controllerArgs(role, kubeconfig, dir string) ([]string, error) {
	common := []string{"--kubeconfig=" + kubeconfig, "--leader-elect=false", "--secure-port=0", "--v=2"}
	switch role {
	case schedulerRole:
		return common, nil
	case controllerManagerRole:
		return append(common,
			"--controllers="+managedControllers,
			"--service-account-private-key-file="+dir+"/sa.key",
			"--root-ca-file="+dir+"/ca.crt",
			"--use-service-account-credentials=false",
		), nil
	}
	return nil, fmt.Errorf("--controllers: unknown controller %q (known: %s, %s)", role, schedulerRole, controllerManagerRole)
}

// controller is one controller child: started once, stopped with SIGTERM on the way down;
// an exit before that ends the run (the cluster is not what the test asked for).
type controller struct {
	role, logPath string
	cmd           *exec.Cmd
	done          chan struct{}
	stopping      atomic.Bool
}

// startController runs bin with args (for a role of this binary: the role, then its flags),
// its output appended to logPath.
func startController(bin, role string, args, env []string, logPath string, died chan<- error) (*controller, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "==== testcluster: starting %s at %s\n", role, time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), parentPIDEnv+"="+strconv.Itoa(os.Getpid())), env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &controller{role: role, logPath: logPath, cmd: cmd, done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		close(c.done)
		if !c.stopping.Load() {
			select {
			case died <- fmt.Errorf("%s (pid %d) exited: %v; last lines of %s:\n%s", role, cmd.Process.Pid, err, logPath, tail(logPath, 20)):
			default:
			}
		}
	}()
	logf("%s pid %d started (log: %s)", role, cmd.Process.Pid, logPath)
	return c, nil
}

// stop sends SIGTERM, and SIGKILL after 10 s.
func (c *controller) stop() {
	if !c.stopping.Swap(true) {
		_ = c.cmd.Process.Signal(syscall.SIGTERM)
	}
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done
	}
}

func logName(role string) string {
	return strings.ReplaceAll(role, "/", "_") + ".log"
}

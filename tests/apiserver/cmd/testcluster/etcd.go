package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v3client"
)

type etcdServer struct {
	cfg       *embed.Config
	clientURL string

	mu     sync.Mutex // serialises restart against compact and stop
	e      *embed.Etcd
	client *clientv3.Client
	// died carries an error of the running member; a member stopped by
	// restart says nothing here.
	died chan error
}

// startEtcd runs an embedded single-member etcd on two free loopback ports,
// data in dataDir, log in logFile. fsync is off: this is a test store.
func startEtcd(dataDir, logFile string) (*etcdServer, error) {
	clientPort, err := freePort()
	if err != nil {
		return nil, err
	}
	peerPort, err := freePort()
	if err != nil {
		return nil, err
	}
	cu, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", clientPort))
	pu, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", peerPort))

	cfg := embed.NewConfig()
	cfg.Name = "testcluster"
	cfg.Dir = dataDir
	cfg.ListenClientUrls = []url.URL{*cu}
	cfg.AdvertiseClientUrls = []url.URL{*cu}
	cfg.ListenPeerUrls = []url.URL{*pu}
	cfg.AdvertisePeerUrls = []url.URL{*pu}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.UnsafeNoFsync = true
	cfg.LogLevel = "warn"
	cfg.LogOutputs = []string{filepath.Clean(logFile)}

	s := &etcdServer{cfg: cfg, clientURL: cu.String(), died: make(chan error, 1)}
	if err := s.startLocked(); err != nil {
		return nil, err
	}
	return s, nil
}

// startLocked starts the member on the configured ports and data, as a
// restart of a real etcd keeps them.
func (s *etcdServer) startLocked() error {
	logFile := s.cfg.LogOutputs[0]
	e, err := embed.StartEtcd(s.cfg)
	if err != nil {
		return fmt.Errorf("etcd: %w (log: %s)", err, logFile)
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return fmt.Errorf("etcd: %w (log: %s)", err, logFile)
	case <-time.After(60 * time.Second):
		e.Server.Stop()
		e.Close()
		return fmt.Errorf("etcd: not ready after 60s (log: %s)", logFile)
	}
	s.e = e
	s.client = v3client.New(e.Server)
	go func(member *embed.Etcd) {
		err, ok := <-member.Err()
		if !ok || err == nil {
			return // closed by stop or restart
		}
		s.mu.Lock()
		current := s.e == member
		s.mu.Unlock()
		if current {
			select {
			case s.died <- err:
			default:
			}
		}
	}(e)
	return nil
}

// restart stops the member, waits `down` (the cluster's outage), and starts
// it again on the same ports and data: kube-apiserver keeps running and
// reconnects, as it does when a real etcd restarts.
func (s *etcdServer) restart(down time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.client.Close()
	s.e.Close()
	time.Sleep(down)
	return s.startLocked()
}

// compactMarker is written (outside kube-apiserver's /registry prefix) just
// before each compaction.
const compactMarker = "/testcluster/compact-marker"

// compact writes compactMarker twice and compacts the keyspace at the second
// write's revision, waiting until the compaction is applied to the backend.
//
// The two writes put the compaction at least two revisions past any
// resourceVersion a client has seen, so a watch from that resourceVersion
// asks for a compacted revision (410 Expired). Compacting at exactly rv+1
// would instead make kube-apiserver answer a watch from rv with a 500
// ("etcd event received with PrevKv=nil") when rv+1 changed a watched key.
func (s *etcdServer) compact(ctx context.Context) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var rev int64
	for i := 0; i < 2; i++ {
		resp, err := s.client.Put(ctx, compactMarker, time.Now().UTC().Format(time.RFC3339Nano))
		if err != nil {
			return 0, err
		}
		rev = resp.Header.Revision
	}
	if _, err := s.client.Compact(ctx, rev, clientv3.WithCompactPhysical()); err != nil {
		return 0, err
	}
	return rev, nil
}

func (s *etcdServer) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.client.Close()
	s.e.Close()
}

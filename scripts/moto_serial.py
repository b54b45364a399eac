"""moto's server, handling one request at a time.

moto serves requests on threads, and its TransactWriteItems checks, writes and (on a failed condition) rolls
back by restoring a copy of the whole table: two transactions on two threads interleave, and a rollback can
undo the other's writes. DynamoDB runs transactions serializably. A lock around moto's WSGI app gives the
same guarantee locally; connections are still served on threads, so keep-alive clients never block others.

Same arguments as moto_server (-H HOST -p PORT).
"""
import threading

from moto import server

_lock = threading.Lock()
_Dispatcher = server.DomainDispatcherApplication


class SerialDispatcher(_Dispatcher):
    def __call__(self, environ, start_response):
        with _lock:
            # moto builds each response whole, so the work is done before the lock is released.
            return list(super().__call__(environ, start_response))


server.DomainDispatcherApplication = SerialDispatcher

if __name__ == "__main__":
    server.main()
